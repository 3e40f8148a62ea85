// Despachos: the summary of units dispatched per dealer and month (SIMA pull, the dispatch reports),
// the objectives with the month's pace, and the list of dispatches (the declared resource).
import { Box, Paper, Tab, Tabs } from '@mui/material';
import { lazy, Suspense, useState } from 'react';
import { Loading } from '../../app/guard';

const SummaryView = lazy(() => import('./SummaryView'));
const ObjectivesView = lazy(() => import('./ObjectivesView'));
const DispatchList = lazy(() => import('./DispatchList'));

const TAB_KEY = 'dispatches-tab';

const TABS = [
  { id: 'summary', label: 'Resumen', Component: SummaryView },
  { id: 'objectives', label: 'Objetivos', Component: ObjectivesView },
  { id: 'list', label: 'Despachos', Component: DispatchList },
] as const;

export default function DispatchesScreen() {
  // Kept per browser tab, not in the URL: the generic list rewrites the query string.
  const [tab, setTab] = useState(() => sessionStorage.getItem(TAB_KEY));
  const current = TABS.find((t) => t.id === tab) ?? TABS[0];
  const { Component } = current;
  return (
    <Box>
      <Paper sx={{ mb: 2 }}>
        <Tabs
          value={current.id}
          onChange={(_, v) => {
            sessionStorage.setItem(TAB_KEY, v);
            setTab(v);
          }}
          aria-label="Despachos"
        >
          {TABS.map((t) => (
            <Tab key={t.id} value={t.id} label={t.label} />
          ))}
        </Tabs>
      </Paper>
      <Suspense fallback={<Loading />}>
        <Component />
      </Suspense>
    </Box>
  );
}
