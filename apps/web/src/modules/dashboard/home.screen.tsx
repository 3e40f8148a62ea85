// The home tab (Dashboard, SPEC §7): every widget for the chosen dealer, brand, year and month.
// Dealer and brand are the toolbar's selectors; year and month are this screen's; all four live
// in the URL, so a view can be shared. Each widget group loads on its own, from
// GET /api/dashboard/summary?schema=…, and shows only to a user who may view its module
// (home.data.ts); the number cards (home.cards.tsx) above the charts (home.charts.tsx).
import { Box } from '@mui/material';
import { HomeCards } from './home.cards';
import { HomeCharts } from './home.charts';
import { useHome } from './home.data';
import { PeriodToolbar } from './widgets';

export default function HomeScreen() {
  const home = useHome();
  return (
    <Box>
      <PeriodToolbar
        title="Dashboard"
        filters={home.f}
        period={home.ventas.period ?? home.despachos.period}
      />
      <HomeCards home={home} />
      <HomeCharts home={home} />
    </Box>
  );
}
