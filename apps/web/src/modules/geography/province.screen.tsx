import { provinceContract } from '@app/contracts';
import { ResourceScreen } from '../../resources/ResourceScreen';
import { defineScreen } from '../../resources/types';

export const screen = defineScreen({
  contract: provinceContract,
  columns: [
    { field: 'code', width: 110 },
    { field: 'name', flex: 2 },
    { field: 'department_name', flex: 2 },
  ],
  form: [
    {
      name: 'department_id',
      type: 'select',
      label: 'Departamento',
      resource: 'departments',
      autocomplete: true,
      required: true,
      cols: 12,
    },
    { name: 'code', type: 'text', label: 'Codigo', required: true, maxLength: 4 },
    { name: 'name', type: 'text', label: 'Nombre', required: true },
    { name: 'active', type: 'switch', label: 'Habilitado' },
  ],
});

export default function ProvinceScreen() {
  return <ResourceScreen def={screen} />;
}
