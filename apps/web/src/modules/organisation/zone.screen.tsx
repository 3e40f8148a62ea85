import { zoneContract } from '@app/contracts';
import { ResourceScreen } from '../../resources/ResourceScreen';
import { defineScreen } from '../../resources/types';

export const zoneScreen = defineScreen({
  contract: zoneContract,
  columns: [
    { field: 'code', width: 120 },
    { field: 'name', flex: 2 },
  ],
  form: [
    { name: 'code', type: 'text', label: 'Codigo', maxLength: 20 },
    { name: 'name', type: 'text', label: 'Nombre', required: true },
    { name: 'active', type: 'switch', label: 'Habilitado' },
  ],
});

export default function ZoneScreen() {
  return <ResourceScreen def={zoneScreen} />;
}
