// Switch, radio, checkbox list, button group, rating (4 levels), color and chip.
import { LIMITS, messages } from '@app/contracts';
import {
  Box,
  Checkbox,
  Chip,
  FormControl,
  FormControlLabel,
  FormGroup,
  FormHelperText,
  FormLabel,
  Radio,
  RadioGroup,
  Rating,
  Switch,
  TextField,
  ToggleButton,
  ToggleButtonGroup,
} from '@mui/material';
import type { ReactNode } from 'react';
import type { Option } from '../types';
import { useOptions } from '../useOptions';
import { type InputProps, labelOf } from './props';

type Id = string | number;

function Group({ p, children }: { p: InputProps; children: ReactNode }) {
  return (
    <FormControl error={!!p.error} required={p.field.required} disabled={p.field.disabled} fullWidth>
      <FormLabel sx={{ fontSize: 13 }}>{labelOf(p.field)}</FormLabel>
      {children}
      <FormHelperText>{p.error ?? p.field.helperText ?? ' '}</FormHelperText>
    </FormControl>
  );
}

const idOf = (p: InputProps, o: Option) => o[p.field.optionValue ?? 'id'] as Id;
const nameOf = (p: InputProps, o: Option) => String(o[p.field.optionLabel ?? 'name'] ?? '');

export function SwitchInput(p: InputProps<boolean | null>) {
  return (
    <FormControl error={!!p.error}>
      <FormControlLabel
        control={
          <Switch
            name={p.field.name}
            checked={!!p.value}
            disabled={p.field.disabled}
            onChange={(e) => !p.field.readOnly && p.onChange(e.target.checked)}
            inputRef={p.inputRef}
          />
        }
        label={labelOf(p.field)}
      />
      {p.error && <FormHelperText>{p.error}</FormHelperText>}
    </FormControl>
  );
}

export function RadioInput(p: InputProps<Id | null>) {
  const { options } = useOptions(p.field, p.values);
  return (
    <Group p={p}>
      <RadioGroup
        row
        name={p.field.name}
        value={p.value ?? ''}
        onChange={(e) => {
          const o = options.find((x) => String(idOf(p, x)) === e.target.value);
          if (!p.field.readOnly) p.onChange(o ? idOf(p, o) : e.target.value);
        }}
      >
        {options.map((o) => (
          <FormControlLabel
            key={String(idOf(p, o))}
            value={idOf(p, o)}
            control={<Radio size="small" />}
            label={nameOf(p, o)}
          />
        ))}
      </RadioGroup>
    </Group>
  );
}

export function CheckboxListInput(p: InputProps<Id[] | null>) {
  const { options } = useOptions(p.field, p.values);
  const value = p.value ?? [];
  return (
    <Group p={p}>
      <FormGroup row>
        {options.length === 0 && <FormHelperText>{messages.emptySelect}</FormHelperText>}
        {options.map((o) => {
          const id = idOf(p, o);
          return (
            <FormControlLabel
              key={String(id)}
              label={nameOf(p, o)}
              control={
                <Checkbox
                  size="small"
                  checked={value.includes(id)}
                  onChange={(e) => {
                    if (p.field.readOnly) return;
                    p.onChange(e.target.checked ? [...value, id] : value.filter((v) => v !== id));
                  }}
                />
              }
            />
          );
        })}
      </FormGroup>
    </Group>
  );
}

export function ButtonGroupInput(p: InputProps<Id | Id[] | null>) {
  const { options } = useOptions(p.field, p.values);
  return (
    <Group p={p}>
      <ToggleButtonGroup
        size="small"
        color="primary"
        exclusive={!p.field.multiple}
        value={p.value ?? (p.field.multiple ? [] : null)}
        onChange={(_, v) => !p.field.readOnly && (v !== null || p.field.clearable) && p.onChange(v)}
        aria-label={labelOf(p.field)}
      >
        {options.map((o) => (
          <ToggleButton key={String(idOf(p, o))} value={idOf(p, o)} sx={{ textTransform: 'none' }}>
            {nameOf(p, o)}
          </ToggleButton>
        ))}
      </ToggleButtonGroup>
    </Group>
  );
}

export function RatingInput(p: InputProps<number | null>) {
  return (
    <Group p={p}>
      <Rating
        name={p.field.name}
        max={LIMITS.ratingLevels}
        value={p.value ?? null}
        readOnly={p.field.readOnly}
        disabled={p.field.disabled}
        onChange={(_, v) => p.onChange(v)}
      />
    </Group>
  );
}

export function ColorInput(p: InputProps<string | null>) {
  return (
    <Box sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }}>
      <TextField
        name={p.field.name}
        label={labelOf(p.field)}
        value={p.value ?? ''}
        required={p.field.required}
        disabled={p.field.disabled}
        error={!!p.error}
        helperText={p.error ?? ' '}
        onChange={(e) => p.onChange(e.target.value)}
        onBlur={p.onBlur}
        inputRef={p.inputRef}
        slotProps={{ htmlInput: { readOnly: p.field.readOnly } }}
      />
      <input
        type="color"
        aria-label={`${labelOf(p.field)} selector`}
        value={/^#[0-9a-f]{6}$/i.test(p.value ?? '') ? (p.value as string) : '#000000'}
        disabled={p.field.disabled || p.field.readOnly}
        onChange={(e) => p.onChange(e.target.value)}
        style={{ width: 44, height: 40, border: 'none', background: 'none', padding: 0 }}
      />
    </Box>
  );
}

/** Chips of the value (an array of texts, or one text); removable unless read-only. */
export function ChipInput(p: InputProps<string[] | string | null>) {
  const items = Array.isArray(p.value) ? p.value : p.value ? [p.value] : [];
  return (
    <Group p={p}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5, minHeight: 32 }}>
        {items.map((c, i) => (
          <Chip
            // biome-ignore lint/suspicious/noArrayIndexKey: chips may repeat a text
            key={`${c}-${i}`}
            label={c}
            color="primary"
            variant="outlined"
            onDelete={
              p.field.readOnly || p.field.disabled || !Array.isArray(p.value)
                ? undefined
                : () => p.onChange(items.filter((_, j) => j !== i))
            }
          />
        ))}
      </Box>
    </Group>
  );
}
