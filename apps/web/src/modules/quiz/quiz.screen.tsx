// /quiz (Satisfaccion de Cliente): the statistics (cobertura, ranking, postventa, chart, export),
// the questionnaires with their questions, and the open alerts of low ratings.
import { lazy } from 'react';
import { TabbedScreen } from '../../shell/TabbedScreen';

const TABS = [
  { id: 'stats', label: 'Estadísticas', Component: lazy(() => import('./StatsView')) },
  { id: 'quizzes', label: 'Encuestas', Component: lazy(() => import('./QuizzesView')) },
  { id: 'alerts', label: 'Alertas', Component: lazy(() => import('./AlertsView')) },
];

export default function QuizScreen() {
  return <TabbedScreen tabs={TABS} storageKey="quiz-tab" label="Satisfacción de Cliente" />;
}
