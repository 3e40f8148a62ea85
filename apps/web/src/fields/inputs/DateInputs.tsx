// Date (single) and date range (two dates close it), in Spanish: shown and typed dd/mm/aaaa, the
// value stays YYYY-MM-DD (what the server reads).
import { Popover, TextField } from '@mui/material';
import { DateCalendar } from '@mui/x-date-pickers/DateCalendar';
import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { type InputProps, labelOf } from './props';

export const DATE_FORMAT = 'YYYY-MM-DD';
/** How a date is shown and typed (es-PE). */
export const SHOWN_DATE_FORMAT = 'DD/MM/YYYY';
const shown = (s: string | null) => (s ? dayjs(s, DATE_FORMAT).format(SHOWN_DATE_FORMAT) : '');

const toDay = (s: string | null | undefined) => (s ? dayjs(s, DATE_FORMAT) : null);
const fromDay = (d: Dayjs | null) => (d?.isValid() ? d.format(DATE_FORMAT) : null);

export function DateInput(p: InputProps<string | null>) {
  const { field } = p;
  return (
    <DatePicker
      label={labelOf(field)}
      format={SHOWN_DATE_FORMAT}
      value={toDay(p.value)}
      onChange={(d) => p.onChange(d === null ? null : d.isValid() ? d.format(DATE_FORMAT) : 'invalida')}
      disabled={field.disabled}
      readOnly={field.readOnly}
      inputRef={p.inputRef}
      slotProps={{
        textField: {
          name: field.name,
          required: field.required,
          error: !!p.error,
          helperText: p.error ?? field.helperText ?? ' ',
          onBlur: p.onBlur,
          size: 'small',
          fullWidth: true,
        },
        field: { clearable: field.clearable },
      }}
    />
  );
}

/** A range: the first click sets the start, the second sets the end and closes. */
export function DateRangeInput(p: InputProps<[string | null, string | null] | null>) {
  const { field } = p;
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [start, setStart] = useState<string | null>(null);
  const [from, to] = p.value ?? [null, null];
  const text = from || to ? `${shown(from)} ~ ${shown(to)}` : '';

  const pick = (d: Dayjs | null) => {
    const s = fromDay(d);
    if (!s) return;
    if (!start) {
      setStart(s);
      return;
    }
    const [a, b] = s < start ? [s, start] : [start, s];
    p.onChange([a, b]);
    setStart(null);
    setAnchor(null);
    p.onBlur?.();
  };

  return (
    <>
      <TextField
        name={field.name}
        label={labelOf(field)}
        value={text}
        required={field.required}
        disabled={field.disabled}
        error={!!p.error}
        helperText={p.error ?? field.helperText ?? ' '}
        placeholder="dd/mm/aaaa ~ dd/mm/aaaa"
        onClick={(e) => !field.disabled && !field.readOnly && setAnchor(e.currentTarget)}
        inputRef={p.inputRef}
        slotProps={{ htmlInput: { readOnly: true } }}
      />
      <Popover
        open={!!anchor}
        anchorEl={anchor}
        onClose={() => {
          // A range needs two dates: closing with one chosen keeps the previous value.
          setStart(null);
          setAnchor(null);
        }}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'left' }}
      >
        <DateCalendar value={toDay(start ?? from)} onChange={pick} />
      </Popover>
    </>
  );
}
