// Pieces both screens of the module use: the year/month pickers and file downloads (GET and
// POST). The upload dialog of a template is resources/UploadDialog.tsx.
import { MONTHS, years } from '@app/contracts';
import { MenuItem, TextField } from '@mui/material';
import { type FileResult, http, type Query, request, saveFile } from '../../api/http';
import { useTypeOptions } from '../../app/generalTypes';

export const thisYear = () => new Date().getFullYear();
export const thisMonth = () => new Date().getMonth() + 1;

export function YearField({ value, onChange }: { value: number; onChange: (y: number) => void }) {
  return (
    <TextField
      select
      size="small"
      label="Año"
      value={value}
      onChange={(e) => onChange(Number(e.target.value))}
      sx={{ width: 100 }}
    >
      {years().map((y) => (
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
}: {
  value: number;
  onChange: (m: number) => void;
  label?: string;
}) {
  // The month names of the general type MONTHS (Preferences), the calendar's until they load.
  const months = useTypeOptions('MONTHS', MONTHS);
  return (
    <TextField
      select
      size="small"
      label={label}
      value={value}
      onChange={(e) => onChange(Number(e.target.value))}
      sx={{ width: 140 }}
    >
      {months.map((m) => (
        <MenuItem key={m.id} value={m.id}>
          {m.name}
        </MenuItem>
      ))}
    </TextField>
  );
}

/** Downloads a file from a GET call (query) or a POST call (body). */
export async function download(path: string, fallback: string, opts: { query?: Query; body?: unknown } = {}) {
  try {
    const file =
      opts.body !== undefined
        ? await request<FileResult>(path, { method: 'POST', body: opts.body, file: true })
        : await http.get<FileResult>(path, opts.query, { file: true });
    saveFile(file, fallback);
  } catch {
    // the client's toast says why
  }
}

/** The brand's name for file names and headers ('' = every brand). */
export const brandLabel = (brands: { id: number; name: string }[] | undefined, id: number) =>
  brands?.find((b) => b.id === id)?.name ?? '';
