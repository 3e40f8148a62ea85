// The home tab's data: its filters, each widget group loaded on its own, and the addresses its
// cards and charts open (a screen's link, with the period of the home tab).
import { MONTHS, PACING_STATUSES } from '@app/contracts';
import { useTheme } from '@mui/material';
import { useDashboardFilters, useGroup } from './dashboard.hooks';

export function useHome() {
  const theme = useTheme();
  const f = useDashboardFilters();
  const params = { year: f.year, month: f.month, dealer_id: f.dealerId, manufacturer_id: f.manufacturerId };
  const ventas = useGroup('ventas', params);
  const encuestas = useGroup('encuestas', params);
  const despachos = useGroup('despachos', params);
  const cifras = useGroup('cifras', params);
  const seguimiento = useGroup('seguimiento', params);
  const taller = useGroup('taller', params);
  const period = `year=${f.year}${f.month ? `&month=${f.month}` : ''}`;
  const p = ventas.period;
  const d = despachos.data;
  return {
    f,
    ventas,
    encuestas,
    despachos,
    cifras,
    seguimiento,
    taller,
    p,
    d,
    salesLink: p && p.to >= p.from ? `/sales?from=${p.from}&to=${p.to}` : '/sales',
    // Seguimiento counts every agreement open at the end of the period, whatever its due date: the
    // list opens on all of them with the same count above it ("Abiertos").
    agreementsLink: '/agreement',
    resumenLink: `/main/resumen?year=${f.year}&month=${cifras.data?.month ?? ''}`,
    link: (path: string, tab?: string) => `${path}?${tab ? `tab=${tab}&` : ''}${period}`,
    theme,
    primary: theme.palette.primary.main,
    previousColor: theme.palette.grey[400],
    status: PACING_STATUSES.find((s) => s.id === d?.status)?.name,
    figuresMonth: cifras.data ? MONTHS[cifras.data.month - 1].name : '',
  };
}

export type Home = ReturnType<typeof useHome>;
