import { userContract } from '@app/contracts';
import { ResourceScreen } from '../../resources/ResourceScreen';
import { defineScreen } from '../../resources/types';

export const userScreen = defineScreen({
  contract: userContract,
  columns: [
    { field: 'username' },
    { field: 'full_name', flex: 1.5 },
    { field: 'email', flex: 1.5 },
    { field: 'dealer_name' },
    { field: 'role_names', sortable: false },
    { field: 'confirmed', type: 'boolean', sortable: false, width: 110 },
  ],
  form: [
    { name: 'username', type: 'text', label: 'Usuario', required: true },
    { name: 'email', type: 'email', label: 'Email', required: true },
    { name: 'full_name', type: 'text', label: 'Nombre completo', required: true },
    { name: 'password', type: 'password', label: 'Contraseña', required: true, onlyNew: true },
    {
      name: 'dealer_id',
      type: 'select',
      label: 'Concesionario',
      resource: 'dealers',
      autocomplete: true,
      clearable: true,
    },
    {
      name: 'roles',
      type: 'select',
      label: 'Roles',
      resource: 'roles',
      multiple: true,
      chips: true,
      autocomplete: true,
    },
    { name: 'default_tab', type: 'text', label: 'Pestaña inicial', placeholder: 'home' },
    { name: 'avatar_url', type: 'text', label: 'Avatar (URL)' },
    { name: 'confirmed', type: 'switch', label: 'Confirmado', cols: 6 },
    { name: 'active', type: 'switch', label: 'Habilitado', cols: 6 },
  ],
});

export default function UserScreen() {
  return <ResourceScreen def={userScreen} />;
}
