import { manufacturerContract } from '@app/contracts';
import { ResourceScreen } from '../../resources/ResourceScreen';
import { defineScreen } from '../../resources/types';

export const screen = defineScreen({
  contract: manufacturerContract,
  columns: [
    { field: 'code', width: 110, filter: true },
    { field: 'name', flex: 2 },
    {
      field: 'color',
      sortable: false,
      width: 120,
      render: (r) => <span style={{ color: r.color ?? undefined }}>{r.color}</span>,
    },
  ],
  form: [
    { name: 'code', type: 'text', label: 'Codigo', required: true, maxLength: 2 },
    { name: 'name', type: 'text', label: 'Nombre', required: true },
    { name: 'color', type: 'color', label: 'Color' },
    { name: 'active', type: 'switch', label: 'Habilitado' },
  ],
});

export default function ManufacturerScreen() {
  return <ResourceScreen def={screen} />;
}
