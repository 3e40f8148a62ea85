// /quiz (Satisfaccion de Cliente): the statistics (cobertura, ranking, postventa, chart, export),
// the questionnaires with their questions, and the open alerts of low ratings.
import { Box, Paper, Tab, Tabs } from '@mui/material';
import { lazy, Suspense } from 'react';
import { useSearchParams } from 'react-router';
import { Loading } from '../../app/guard';

const StatsView = lazy(() => import('./StatsView'));
const QuizzesView = lazy(() => import('./QuizzesView'));
const AlertsView = lazy(() => import('./AlertsView'));

const TABS = [
  { id: 'stats', label: 'Estadisticas', Component: StatsView },
  { id: 'quizzes', label: 'Encuestas', Component: QuizzesView },
  { id: 'alerts', label: 'Alertas', Component: AlertsView },
] as const;

export default function QuizScreen() {
  const [sp, setSp] = useSearchParams();
  const current = TABS.find((t) => t.id === sp.get('tab')) ?? TABS[0];
  const { Component } = current;
  return (
    <Box>
      <Paper sx={{ mb: 2 }}>
        <Tabs
          value={current.id}
          onChange={(_, v) => setSp({ tab: v }, { replace: true })}
          aria-label="Satisfaccion de Cliente"
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
