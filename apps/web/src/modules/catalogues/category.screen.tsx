import { categoryContract } from '@app/contracts';
import { ResourceScreen } from '../../resources/ResourceScreen';
import { defineScreen } from '../../resources/types';

export const screen = defineScreen({
  contract: categoryContract,
  columns: [
    { field: 'name', flex: 1 },
    { field: 'description', flex: 2, sortable: false },
  ],
  form: [
    { name: 'name', type: 'text', label: 'Nombre', required: true, cols: 12 },
    { name: 'description', type: 'textarea', label: 'Descripcion', counter: true, maxLength: 300 },
    { name: 'active', type: 'switch', label: 'Habilitado' },
  ],
});

export default function CategoryScreen() {
  return <ResourceScreen def={screen} />;
}
