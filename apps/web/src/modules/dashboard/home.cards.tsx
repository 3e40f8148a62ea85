// The home tab's number cards: one per headline figure of the groups the user may see, each
// opening its screen for the period.
import { Box } from '@mui/material';
import type { Home } from './home.data';
import { formatDate, formatValue, NumberCard } from './widgets';

export function HomeCards({ home }: { home: Home }) {
  const { ventas, encuestas, despachos, cifras, seguimiento, taller, p, d, status, figuresMonth } = home;
  const { salesLink, agreementsLink, resumenLink, link } = home;
  return (
    <Box
      sx={{
        display: 'grid',
        gap: 2,
        mb: 2,
        gridTemplateColumns: {
          xs: '1fr',
          sm: 'repeat(2, 1fr)',
          md: 'repeat(3, 1fr)',
          lg: 'repeat(4, 1fr)',
        },
      }}
    >
      {ventas.allowed && (
        <NumberCard title="Ventas CEM" number={ventas.data?.sales} to={salesLink} loading={ventas.loading} />
      )}
      {despachos.allowed && (
        <NumberCard
          title="Unidades despachadas"
          number={d?.dispatched}
          // A month: its objectives (dispatched against them); the whole year: the Resumen tab,
          // whose Total row is this number.
          to={home.f.month ? link('/main/dispatches', 'objectives') : link('/main/dispatches', 'summary')}
          loading={despachos.loading}
          detail={
            d && d.objective > 0
              ? `Objetivo ${formatValue(d.objective)} · al día ${formatValue(d.objective_to_date)} · avance ${formatValue(d.pacing, 'pct')}${status ? ` (${status})` : ''}`
              : 'Sin objetivo en el periodo'
          }
        />
      )}
      {despachos.allowed && (
        <NumberCard
          title="Venta diaria (unidades)"
          number={d?.sold}
          to={link('/main/daily')}
          loading={despachos.loading}
        />
      )}
      {encuestas.allowed && (
        <NumberCard
          title="Cobertura de encuestas"
          number={encuestas.data?.coverage}
          unit="pct"
          to={link('/quiz', 'stats')}
          loading={encuestas.loading}
          detail={
            encuestas.data &&
            `${formatValue(encuestas.data.responses)} respuestas de ${formatValue(encuestas.data.sales)} ventas`
          }
        />
      )}
      {encuestas.allowed && (
        <NumberCard
          title="Top box de satisfacción"
          number={encuestas.data?.top_box}
          unit="pct"
          to={link('/quiz', 'stats')}
          loading={encuestas.loading}
          detail="Calificaciones en el nivel más alto"
        />
      )}
      {cifras.allowed && (
        <NumberCard
          title="Cumplimiento de cifras"
          number={cifras.data?.compliance}
          unit="pct"
          to={resumenLink}
          loading={cifras.loading}
          detail={cifras.data && `Promedio de conceptos, acumulado a ${figuresMonth}`}
        />
      )}
      {seguimiento.allowed && (
        <NumberCard
          title="Acuerdos abiertos"
          number={seguimiento.data?.open_agreements}
          higherIsBetter={false}
          to={agreementsLink}
          loading={seguimiento.loading}
          detail={
            seguimiento.data &&
            `Abiertos al ${p ? formatDate(p.to) : 'cierre del periodo'} · ${formatValue(seguimiento.data.overdue_agreements)} vencidos`
          }
        />
      )}
      {seguimiento.allowed && (
        <NumberCard
          title="Alertas de encuesta abiertas"
          number={seguimiento.data?.open_alerts}
          higherIsBetter={false}
          to="/quiz?tab=alerts"
          loading={seguimiento.loading}
        />
      )}
      {taller.allowed && (
        <NumberCard
          title="Productividad del taller"
          number={taller.data?.productivity}
          unit="pct"
          to={link('/workshopinfo', 'report')}
          loading={taller.loading}
          detail={taller.data && `Eficiencia ${formatValue(taller.data.efficiency.value, 'pct')}`}
        />
      )}
    </Box>
  );
}
