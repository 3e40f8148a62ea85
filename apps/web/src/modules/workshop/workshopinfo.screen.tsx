// /workshopinfo (Info Taller): the monthly workshop records (list, dialog, template upload) and
// report-info (productivity, efficiency, labour rate, parts per order against the year before).
import { lazy } from 'react';
import { TabbedScreen } from '../../shell/TabbedScreen';

const TABS = [
  { id: 'list', label: 'Registros', Component: lazy(() => import('./WorkshopList')) },
  { id: 'report', label: 'Reporte', Component: lazy(() => import('./ReportView')) },
];

export default function WorkshopInfoScreen() {
  return <TabbedScreen tabs={TABS} storageKey="workshopinfo-tab" label="Info Taller" />;
}
