// /main/figure: the month's figures. 'Cifras' is the grid (one dealer, or the network when the
// toolbar says 'Todos'); 'Periodos' the dealers' state for the month with enable, reopen and the
// reminder. Dealer users see and fill their own dealer only.
import { Paper, Stack, Tab, Tabs, Typography } from '@mui/material';
import { useState } from 'react';
import { MonthField } from '../../fields/PeriodFields';
import { useUrlPeriod } from '../../lib/urlPeriod';
import { useGlobalFilters } from '../../session/filters';
import { usePermission, useSession } from '../../session/session';
import { lastMonth, YearPicker } from './common';
import { FiguresView } from './FiguresView';
import { PeriodsView } from './PeriodsView';

export default function FigureScreen() {
  const start = useUrlPeriod(lastMonth());
  const [year, setYear] = useState(start.year);
  const [month, setMonth] = useState(start.month);
  const [tab, setTab] = useState(0);
  const { dealerId } = useGlobalFilters();
  const isDealer = useSession((s) => !!s.info?.user?.isDealer);
  const canStore = usePermission('Figures.store');
  const manufacturer = !isDealer && canStore;
  const canUpdate = usePermission('Figures.update');
  const canExport = usePermission('Figures.export');
  return (
    <>
      <Paper sx={{ p: 1.5, mb: 1.5 }}>
        <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
          <Typography variant="h6" sx={{ mr: 1 }}>
            Cifras
          </Typography>
          <YearPicker value={year} onChange={setYear} />
          <MonthField value={month} onChange={setMonth} />
          <Tabs value={tab} onChange={(_, v) => setTab(v)} sx={{ ml: 2 }}>
            <Tab label="Cifras" />
            <Tab label="Periodos" />
          </Tabs>
        </Stack>
      </Paper>
      {tab === 0 ? (
        <FiguresView
          year={year}
          month={month}
          dealerId={dealerId}
          manufacturer={manufacturer}
          canUpdate={canUpdate}
          canExport={canExport}
        />
      ) : (
        <PeriodsView year={year} month={month} manufacturer={manufacturer} />
      )}
    </>
  );
}
