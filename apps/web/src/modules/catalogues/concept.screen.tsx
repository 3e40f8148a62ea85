import { conceptContract } from '@app/contracts';
import { ResourceScreen } from '../../resources/ResourceScreen';
import { defineScreen } from '../../resources/types';

export const screen = defineScreen({
  contract: conceptContract,
  columns: [
    { field: 'code', width: 120 },
    { field: 'name', flex: 2 },
    { field: 'unit', sortable: false, width: 100 },
    { field: 'group', filter: true },
    { field: 'order', type: 'number', width: 90 },
  ],
  form: [
    { name: 'code', type: 'text', label: 'Codigo', required: true, maxLength: 30 },
    { name: 'name', type: 'text', label: 'Nombre', required: true },
    { name: 'unit', type: 'text', label: 'Unidad', maxLength: 20 },
    { name: 'group', type: 'text', label: 'Grupo', maxLength: 60 },
    { name: 'order', type: 'number', label: 'Orden', min: 0, max: 100000 },
    { name: 'active', type: 'switch', label: 'Habilitado' },
  ],
});

export default function ConceptScreen() {
  return <ResourceScreen def={screen} />;
}
