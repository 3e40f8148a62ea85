import { tabContract } from '@app/contracts';
import { ResourceScreen } from '../../resources/ResourceScreen';
import { defineScreen, type ResourceScreenDef } from '../../resources/types';
import { TabTree } from './TabTree';

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
    {
      name: 'icon',
      type: 'text',
      label: 'Icono',
      helperText: 'Nombre de un icono de Material, p. ej. Store',
    },
    {
      name: 'permission',
      type: 'text',
      label: 'Permiso',
      helperText: 'Base del permiso, p. ej. Admin.Dealers',
    },
    { name: 'order', type: 'number', label: 'Orden', min: 0, max: 100000 },
    { name: 'active', type: 'switch', label: 'Habilitado' },
  ],
});

const withTree: ResourceScreenDef = { ...tabScreen, header: <TabTree /> };

export default function TabScreen() {
  return <ResourceScreen def={withTree} />;
}
