import { tabContract } from '@app/contracts';
import { ResourceScreen } from '../../resources/ResourceScreen';
import { defineScreen } from '../../resources/types';

export const tabScreen = defineScreen({
  contract: tabContract,
  columns: [
    { field: 'title', flex: 1.5 },
    { field: 'name' },
    { field: 'path', sortable: false, flex: 1.5 },
    { field: 'parent_title' },
    { field: 'permission', sortable: false, flex: 1.5 },
    { field: 'order', type: 'number', width: 90 },
  ],
  form: [
    {
      name: 'parent_id',
      type: 'select',
      label: 'Padre',
      resource: 'tabs',
      optionLabel: 'title',
      autocomplete: true,
      clearable: true,
      cols: 12,
    },
    { name: 'name', type: 'text', label: 'Nombre', required: true },
    { name: 'title', type: 'text', label: 'Titulo', required: true },
    { name: 'path', type: 'text', label: 'Ruta' },
    { name: 'icon', type: 'text', label: 'Icono' },
    { name: 'permission', type: 'text', label: 'Permiso' },
    { name: 'order', type: 'number', label: 'Orden', min: 0, max: 100000 },
    { name: 'active', type: 'switch', label: 'Habilitado' },
  ],
});

export default function TabScreen() {
  return <ResourceScreen def={tabScreen} />;
}
