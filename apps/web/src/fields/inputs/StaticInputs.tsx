// Read-only label, divider, subheader, alert, spacer, button and file.
import UploadFile from '@mui/icons-material/UploadFile';
import {
  Alert,
  Box,
  Button,
  Divider,
  FormHelperText,
  ListSubheader,
  TextField,
  Typography,
} from '@mui/material';
import { formatLabel } from '../masks';
import type { FieldDef } from '../types';
import { type InputProps, labelOf } from './props';

export function LabelInput(p: InputProps<unknown>) {
  return (
    <TextField
      label={labelOf(p.field)}
      name={p.field.name}
      value={formatLabel(p.value)}
      variant="standard"
      slotProps={{ htmlInput: { readOnly: true }, inputLabel: { shrink: true } }}
      helperText=" "
    />
  );
}

export function DisplayField({ field }: { field: FieldDef }) {
  switch (field.type) {
    case 'divider':
      return <Divider sx={{ my: 1 }}>{field.label}</Divider>;
    case 'subheader':
      return (
        // A heading of the form, outside any list (a list subheader is an <li>).
        <ListSubheader component="div" disableSticky sx={{ px: 0, color: 'primary.main', fontWeight: 600 }}>
          {field.text ?? field.label}
        </ListSubheader>
      );
    case 'alert':
      return <Alert severity={field.severity ?? 'info'}>{field.text ?? field.label}</Alert>;
    case 'spacer':
      return <Box sx={{ height: 16 }} />;
    case 'button':
      return (
        <Button variant="outlined" onClick={field.onClick} disabled={field.disabled}>
          {field.text ?? field.label}
        </Button>
      );
    default:
      return null;
  }
}

/** File: the value is the chosen File (or null). */
export function FileInput(p: InputProps<File | null>) {
  return (
    <Box>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
        <Button component="label" variant="outlined" startIcon={<UploadFile />} disabled={p.field.disabled}>
          {labelOf(p.field)}
          <input
            hidden
            type="file"
            name={p.field.name}
            accept={p.field.accept}
            onChange={(e) => p.onChange(e.target.files?.[0] ?? null)}
          />
        </Button>
        <Typography variant="body2" color="text.secondary" noWrap>
          {p.value?.name ?? 'Ningún archivo seleccionado'}
        </Typography>
      </Box>
      <FormHelperText error={!!p.error}>{p.error ?? ' '}</FormHelperText>
    </Box>
  );
}
