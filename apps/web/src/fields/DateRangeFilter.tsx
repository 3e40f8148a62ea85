// A "from / to" date filter for toolbars and dialogs: two kit date inputs (Spanish, shown dd/mm/aaaa).
// The parent only sees complete dates ('' while a date is empty or half typed).
import { Box } from '@mui/material';
import { useState } from 'react';
import { DatesProvider } from './DatesProvider';
import { DateInput } from './inputs/DateInputs';

export interface DateRangeValue {
  from: string;
  to: string;
}

const complete = (s: string | null) => (s && /^\d{4}-\d{2}-\d{2}$/.test(s) ? s : '');

export function DateRangeFilter({
  value,
  onChange,
  labels = ['Desde', 'Hasta'],
  names = ['date_from', 'date_to'],
  width = 190,
}: {
  value: DateRangeValue;
  onChange: (value: DateRangeValue) => void;
  labels?: [string, string];
  names?: [string, string];
  width?: number;
}) {
  // What is typed (possibly incomplete); the parent's value wins when it changes (e.g. "clear").
  const [typed, setTyped] = useState<[string | null, string | null]>([value.from || null, value.to || null]);
  if (complete(typed[0]) !== value.from || complete(typed[1]) !== value.to) {
    setTyped([value.from || null, value.to || null]);
  }

  const set = (i: 0 | 1, v: string | null) => {
    const next: [string | null, string | null] = i === 0 ? [v, typed[1]] : [typed[0], v];
    setTyped(next);
    const out = { from: complete(next[0]), to: complete(next[1]) };
    if (out.from !== value.from || out.to !== value.to) onChange(out);
  };

  return (
    <DatesProvider>
      {([0, 1] as const).map((i) => (
        <Box key={names[i]} sx={{ width }}>
          <DateInput
            field={{ name: names[i], type: 'date', label: labels[i], clearable: true }}
            value={typed[i]}
            onChange={(v) => set(i, v)}
          />
        </Box>
      ))}
    </DatesProvider>
  );
}
