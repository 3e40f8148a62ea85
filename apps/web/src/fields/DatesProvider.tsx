// The one localisation of every date picker: dayjs in Spanish (months, weekdays, Monday first)
// and the pickers' own texts in Spanish ("Cancelar" / "Aceptar", "Seleccionar fecha", "Elegir
// fecha", the dd/mm/aaaa placeholder). Mounted around the kit's forms and filters (FormFields,
// DateRangeFilter), the only places a picker is drawn; not at the root, so the login route does
// not load dayjs and the pickers. A picker drawn elsewhere is wrapped in it too.
import { AdapterDayjs } from '@mui/x-date-pickers/AdapterDayjs';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import { esES } from '@mui/x-date-pickers/locales';
import 'dayjs/locale/es';
import type { ReactNode } from 'react';

export const DATE_LOCALE_TEXT = {
  ...esES.components.MuiLocalizationProvider.defaultProps.localeText,
  okButtonLabel: 'Aceptar',
  cancelButtonLabel: 'Cancelar',
  datePickerToolbarTitle: 'Seleccionar fecha',
  openDatePickerDialogue: (formatted: string | null) =>
    formatted ? `Elegir fecha, la fecha elegida es ${formatted}` : 'Elegir fecha',
  fieldDayPlaceholder: () => 'dd',
  fieldMonthPlaceholder: (p: { contentType: string }) => (p.contentType === 'letter' ? 'mmmm' : 'mm'),
  fieldYearPlaceholder: (p: { digitAmount: number }) => 'a'.repeat(p.digitAmount),
};

export function DatesProvider({ children }: { children: ReactNode }) {
  return (
    <LocalizationProvider dateAdapter={AdapterDayjs} adapterLocale="es" localeText={DATE_LOCALE_TEXT}>
      {children}
    </LocalizationProvider>
  );
}
