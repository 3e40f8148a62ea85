// Text, password, email, number, percent, price, phone and textarea inputs.
import { InputAdornment, TextField } from '@mui/material';
import { useSession } from '../../session/session';
import { formatPrice, maskPhone, numericText } from '../masks';
import { type InputProps, labelOf } from './props';

function common(p: InputProps) {
  const { field, error, onBlur, inputRef } = p;
  return {
    name: field.name,
    label: labelOf(field),
    required: field.required,
    disabled: field.disabled,
    placeholder: field.placeholder,
    error: !!error,
    helperText: error ?? field.helperText ?? ' ',
    onBlur,
    inputRef,
  };
}

export function TextInput(p: InputProps<string | null>) {
  const { field } = p;
  const type = field.type === 'password' ? 'password' : field.type === 'email' ? 'email' : 'text';
  return (
    <TextField
      {...common(p)}
      type={type}
      value={p.value ?? ''}
      onChange={(e) => p.onChange(e.target.value)}
      autoComplete={field.type === 'password' ? 'new-password' : undefined}
      slotProps={{ htmlInput: { maxLength: field.maxLength, readOnly: field.readOnly } }}
    />
  );
}

export function TextareaInput(p: InputProps<string | null>) {
  const { field } = p;
  const text = p.value ?? '';
  const counter = field.counter ? `${text.length}${field.maxLength ? ` / ${field.maxLength}` : ''}` : null;
  return (
    <TextField
      {...common(p)}
      multiline
      minRows={field.rows ?? 3}
      value={text}
      onChange={(e) => p.onChange(e.target.value)}
      helperText={
        <span style={{ display: 'flex', justifyContent: 'space-between' }}>
          <span>{p.error ?? field.helperText ?? ' '}</span>
          {counter && <span data-testid={`${field.name}-counter`}>{counter}</span>}
        </span>
      }
      slotProps={{ htmlInput: { maxLength: field.maxLength, readOnly: field.readOnly } }}
    />
  );
}

/** Number, percent (%) and price (currency sign, 2 decimals). The form value is a number. */
export function NumberInput(p: InputProps<number | null | undefined>) {
  const { field } = p;
  const sign = useSession((s) => String(s.settings.DEFAULT_CURRENCY_SIGN ?? 'S/'));
  const adornments =
    field.type === 'percent'
      ? { endAdornment: <InputAdornment position="end">%</InputAdornment> }
      : field.type === 'price'
        ? { startAdornment: <InputAdornment position="start">{sign}</InputAdornment> }
        : {};
  return (
    <TextField
      {...common(p)}
      value={p.value === null || p.value === undefined ? '' : String(p.value)}
      onChange={(e) => {
        const s = numericText(e.target.value, (field.min ?? -1) < 0);
        if (s === '' || s === '-') p.onChange(undefined);
        else if (s.endsWith('.')) p.onChange(s as unknown as number);
        else p.onChange(Number(s));
      }}
      onBlur={() => {
        if (typeof p.value === 'string') p.onChange(Number(p.value));
        if (field.type === 'price' && p.value !== undefined && p.value !== null)
          p.onChange(Number(formatPrice(p.value)));
        p.onBlur?.();
      }}
      slotProps={{ input: adornments, htmlInput: { inputMode: 'decimal', readOnly: field.readOnly } }}
    />
  );
}

export function PhoneInput(p: InputProps<string | null>) {
  return (
    <TextField
      {...common(p)}
      type="tel"
      value={p.value ?? ''}
      onChange={(e) => p.onChange(maskPhone(e.target.value))}
      placeholder={p.field.placeholder ?? '999 999 999'}
      slotProps={{ htmlInput: { readOnly: p.field.readOnly, inputMode: 'tel' } }}
    />
  );
}
