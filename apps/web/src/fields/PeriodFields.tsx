// The year and month pickers of the period screens (dispatches, daily sales, figures, fees,
// capacities, the workshop report, the dashboard, the survey statistics). Month names are the
// general type MONTHS (Preferences), the calendar's until it loads.
import { limaDate, MONTHS, years } from '@app/contracts';
import { MenuItem, TextField } from '@mui/material';
import { useTypeOptions } from '../lib/generalTypes';

/** This year and month in Lima (the server's business day), whatever the browser's time zone. */
export const thisYear = () => Number(limaDate().slice(0, 4));
export const thisMonth = () => Number(limaDate().slice(5, 7));
/** The month a manager looks at first: the last one that ended in Lima. */
export const lastMonth = () =>
  thisMonth() === 1 ? { year: thisYear() - 1, month: 12 } : { year: thisYear(), month: thisMonth() - 1 };

export function YearField({
  value,
  onChange,
  options,
  newestFirst = false,
}: {
  value: number;
  onChange: (y: number) => void;
  /** The years offered (default: SPEC §9's, 2016 to this year). */
  options?: number[];
  newestFirst?: boolean;
}) {
  const list = options ?? years();
  return (
    <TextField
      select
      label="Año"
      value={value}
      onChange={(e) => onChange(Number(e.target.value))}
      sx={{ width: 110 }}
      fullWidth={false}
    >
      {(newestFirst ? [...list].reverse() : list).map((y) => (
        <MenuItem key={y} value={y}>
          {y}
        </MenuItem>
      ))}
    </TextField>
  );
}

export function MonthField({
  value,
  onChange,
  label = 'Mes',
  allYear = false,
}: {
  value: number;
  onChange: (m: number) => void;
  label?: string;
  /** Offers 'Todo el año' as month 0. */
  allYear?: boolean;
}) {
  const months = useTypeOptions('MONTHS', MONTHS);
  return (
    <TextField
      select
      label={label}
      value={value}
      onChange={(e) => onChange(Number(e.target.value))}
      sx={{ width: 150 }}
      fullWidth={false}
    >
      {allYear && <MenuItem value={0}>Todo el año</MenuItem>}
      {months.map((m) => (
        <MenuItem key={m.id} value={m.id}>
          {m.name}
        </MenuItem>
      ))}
    </TextField>
  );
}
