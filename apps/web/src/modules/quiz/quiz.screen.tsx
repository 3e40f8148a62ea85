// /quiz (Satisfaccion de Cliente): the statistics (cobertura, ranking, postventa, chart, export),
// the questionnaires with their questions, and the open alerts of low ratings.
import { Box, Paper, Tab, Tabs } from '@mui/material';
import { lazy, Suspense, useState } from 'react';
import { Loading } from '../../app/guard';

const StatsView = lazy(() => import('./StatsView'));
const QuizzesView = lazy(() => import('./QuizzesView'));
const AlertsView = lazy(() => import('./AlertsView'));

const TAB_KEY = 'quiz-tab';

const TABS = [
  { id: 'stats', label: 'Estadisticas', Component: StatsView },
  { id: 'quizzes', label: 'Encuestas', Component: QuizzesView },
  { id: 'alerts', label: 'Alertas', Component: AlertsView },
] as const;

export default function QuizScreen() {
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
