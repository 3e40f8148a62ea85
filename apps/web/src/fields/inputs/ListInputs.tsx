// Sortable list (up/down buttons), accordion list (text inputs per item) and tree view.

import { messages } from '@app/contracts';
import Add from '@mui/icons-material/Add';
import ArrowDownward from '@mui/icons-material/ArrowDownward';
import ArrowUpward from '@mui/icons-material/ArrowUpward';
import Delete from '@mui/icons-material/Delete';
import ExpandMore from '@mui/icons-material/ExpandMore';
import {
  Accordion,
  AccordionDetails,
  AccordionSummary,
  Box,
  Button,
  FormHelperText,
  FormLabel,
  IconButton,
  List,
  ListItem,
  ListItemText,
  TextField,
  Typography,
} from '@mui/material';
import { RichTreeView } from '@mui/x-tree-view/RichTreeView';
import type { Option } from '../types';
import { type InputProps, labelOf } from './props';

/** Moves item i by delta (-1 up, +1 down); out-of-range moves change nothing. */
export function move<T>(items: T[], i: number, delta: number): T[] {
  const j = i + delta;
  if (j < 0 || j >= items.length) return items;
  const out = [...items];
  [out[i], out[j]] = [out[j], out[i]];
  return out;
}

export function SortableListInput(p: InputProps<Option[] | null>) {
  const items = p.value ?? p.field.options ?? [];
  const name = (o: Option) => String(o[p.field.optionLabel ?? 'name'] ?? '');
  const locked = p.field.readOnly || p.field.disabled;
  return (
    <Box>
      <FormLabel sx={{ fontSize: 13 }}>{labelOf(p.field)}</FormLabel>
      <List dense sx={{ border: 1, borderColor: 'divider', borderRadius: 1 }} aria-label={labelOf(p.field)}>
        {items.length === 0 && (
          <ListItem>
            <ListItemText secondary={messages.emptySelect} />
          </ListItem>
        )}
        {items.map((o, i) => (
          <ListItem
            key={String(o.id)}
            divider={i < items.length - 1}
            secondaryAction={
              <>
                <IconButton
                  size="small"
                  aria-label={`Subir ${name(o)}`}
                  disabled={locked || i === 0}
                  onClick={() => p.onChange(move(items, i, -1))}
                >
                  <ArrowUpward fontSize="small" />
                </IconButton>
                <IconButton
                  size="small"
                  aria-label={`Bajar ${name(o)}`}
                  disabled={locked || i === items.length - 1}
                  onClick={() => p.onChange(move(items, i, 1))}
                >
                  <ArrowDownward fontSize="small" />
                </IconButton>
              </>
            }
          >
            <ListItemText primary={`${i + 1}. ${name(o)}`} />
          </ListItem>
        ))}
      </List>
      <FormHelperText error={!!p.error}>{p.error ?? ' '}</FormHelperText>
    </Box>
  );
}

type Item = Record<string, string | number | null>;

export function AccordionListInput(p: InputProps<Item[] | null>) {
  const items = p.value ?? [];
  const fields = p.field.itemFields ?? [{ name: 'name', label: 'Nombre' }];
  const locked = p.field.readOnly || p.field.disabled;
  const set = (i: number, key: string, v: string) =>
    p.onChange(items.map((it, j) => (j === i ? { ...it, [key]: v } : it)));
  return (
    <Box>
      <Box sx={{ display: 'flex', alignItems: 'center', mb: 1 }}>
        <Typography variant="subtitle2" sx={{ flex: 1 }}>
          {labelOf(p.field)}
        </Typography>
        {!locked && (
          <Button size="small" startIcon={<Add />} onClick={() => p.onChange([...items, {}])}>
            Agregar
          </Button>
        )}
      </Box>
      {items.length === 0 && <FormHelperText>{messages.emptySelect}</FormHelperText>}
      {items.map((it, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: items have no id until saved
        <Accordion key={i} disableGutters defaultExpanded={i === items.length - 1}>
          <AccordionSummary expandIcon={<ExpandMore />}>
            <Typography sx={{ flex: 1 }}>
              {p.field.itemTitle?.(it, i) ?? (String(it[fields[0].name] ?? '') || `Item ${i + 1}`)}
            </Typography>
          </AccordionSummary>
          <AccordionDetails sx={{ display: 'grid', gap: 1 }}>
            {fields.map((f) => (
              <TextField
                key={f.name}
                label={f.label}
                name={`${p.field.name}.${i}.${f.name}`}
                value={it[f.name] ?? ''}
                onChange={(e) => set(i, f.name, e.target.value)}
                slotProps={{ htmlInput: { readOnly: locked } }}
              />
            ))}
            {!locked && (
              <Box>
                <Button
                  size="small"
                  color="error"
                  startIcon={<Delete />}
                  onClick={() => p.onChange(items.filter((_, j) => j !== i))}
                >
                  Quitar
                </Button>
              </Box>
            )}
          </AccordionDetails>
        </Accordion>
      ))}
      <FormHelperText error={!!p.error}>{p.error ?? ' '}</FormHelperText>
    </Box>
  );
}

/** Tree view with check boxes; the value is the list of checked node ids. */
export function TreeInput(p: InputProps<string[] | null>) {
  return (
    <Box>
      <FormLabel sx={{ fontSize: 13 }}>{labelOf(p.field)}</FormLabel>
      <RichTreeView
        items={p.field.tree ?? []}
        checkboxSelection
        multiSelect
        selectedItems={p.value ?? []}
        onSelectedItemsChange={(_, ids) => !p.field.readOnly && p.onChange(ids as string[])}
        disableSelection={p.field.disabled}
      />
      <FormHelperText error={!!p.error}>{p.error ?? ' '}</FormHelperText>
    </Box>
  );
}
