import { manufacturerModelContract } from '@app/contracts';
import { ResourceScreen } from '../../resources/ResourceScreen';
import { defineScreen } from '../../resources/types';

export const manufacturerModelScreen = defineScreen({
  contract: manufacturerModelContract,
  manufacturerFilter: 'manufacturer_id',
  columns: [{ field: 'manufacturer_name' }, { field: 'code', width: 140 }, { field: 'name', flex: 2 }],
  form: [
    {
      name: 'manufacturer_id',
      type: 'select',
      label: 'Marca',
      resource: 'manufacturers',
      required: true,
      cols: 12,
    },
    { name: 'code', type: 'text', label: 'Codigo', maxLength: 30 },
    { name: 'name', type: 'text', label: 'Nombre', required: true },
    { name: 'active', type: 'switch', label: 'Habilitado' },
  ],
});

export default function ManufacturerModelScreen() {
  return <ResourceScreen def={manufacturerModelScreen} />;
}
