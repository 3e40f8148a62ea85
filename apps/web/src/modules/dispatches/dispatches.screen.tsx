// Despachos: the summary of units dispatched per dealer and month (SIMA pull, the dispatch reports),
// the objectives with the month's pace, and the list of dispatches (the declared resource).
import { lazy } from 'react';
import { TabbedScreen } from '../../shell/TabbedScreen';

const TABS = [
  { id: 'summary', label: 'Resumen', Component: lazy(() => import('./SummaryView')) },
  { id: 'objectives', label: 'Objetivos', Component: lazy(() => import('./ObjectivesView')) },
  { id: 'list', label: 'Despachos', Component: lazy(() => import('./DispatchList')) },
];

export default function DispatchesScreen() {
  return <TabbedScreen tabs={TABS} storageKey="dispatches-tab" label="Despachos" />;
}
