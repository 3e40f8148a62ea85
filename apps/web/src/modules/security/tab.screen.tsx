import { tabContract } from '@app/contracts';
import { ResourceScreen } from '../../resources/ResourceScreen';
import { defineScreen, type ResourceScreenDef } from '../../resources/types';
import { TabTree } from './TabTree';

export const tabScreen = defineScreen({
  contract: tabContract,
  columns: ['title', 'name', 'path', 'parent_title', 'permission', 'order'],
  form: [
    { name: 'parent_id', optionLabel: 'title', cols: 12 },
    'name',
    'title',
    'path',
    { name: 'icon', helperText: 'Nombre de un icono de Material, p. ej. Store' },
    { name: 'permission', helperText: 'Base del permiso, p. ej. Admin.Dealers' },
    'order',
    'active',
  ],
});

const withTree: ResourceScreenDef = { ...tabScreen, header: <TabTree /> };

export default function TabScreen() {
  return <ResourceScreen def={withTree} />;
}
