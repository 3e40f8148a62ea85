import { roleContract } from '@app/contracts';
import { ResourceScreen } from '../../resources/ResourceScreen';
import { defineScreen } from '../../resources/types';

export const roleScreen = defineScreen({
  contract: roleContract,
  columns: [
    { field: 'name', flex: 1 },
    { field: 'description', flex: 2, sortable: false },
    { field: 'is_static', type: 'boolean', sortable: false, width: 120 },
  ],
  form: [
    { name: 'name', type: 'text', label: 'Nombre', required: true, cols: 12 },
    { name: 'description', type: 'textarea', label: 'Descripcion', counter: true, maxLength: 200 },
    { name: 'active', type: 'switch', label: 'Habilitado' },
  ],
});

export default function RoleScreen() {
  return <ResourceScreen def={roleScreen} />;
}
