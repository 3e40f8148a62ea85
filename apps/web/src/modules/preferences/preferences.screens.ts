// The three lists of the preferences page: general types, their values, configurations.
import { configurationContract, generalTypeContract, typeValueContract } from '@app/contracts';
import { defineScreen } from '../../resources/types';

export const generalTypeScreen = defineScreen({
  contract: generalTypeContract,
  columns: [
    { field: 'code', flex: 1 },
    { field: 'name', flex: 2 },
  ],
  form: [
    { name: 'code', type: 'text', label: 'Codigo', required: true, maxLength: 60 },
    { name: 'name', type: 'text', label: 'Nombre', required: true, maxLength: 120 },
    { name: 'active', type: 'switch', label: 'Habilitado' },
  ],
});

export const typeValueScreen = defineScreen({
  contract: typeValueContract,
  columns: [
    { field: 'general_type_name', flex: 1.5 },
    { field: 'code', flex: 1 },
    { field: 'name', flex: 2 },
    { field: 'order', type: 'number', width: 90 },
  ],
  form: [
    {
      name: 'general_type_id',
      type: 'select',
      label: 'Tipo general',
      resource: 'general-types',
      autocomplete: true,
      required: true,
      cols: 12,
    },
    { name: 'code', type: 'text', label: 'Codigo', required: true, maxLength: 60 },
    { name: 'name', type: 'text', label: 'Nombre', required: true, maxLength: 120 },
    { name: 'order', type: 'number', label: 'Orden', min: 0, max: 100000 },
    { name: 'active', type: 'switch', label: 'Habilitado' },
  ],
});

export const configurationScreen = defineScreen({
  contract: configurationContract,
  columns: [
    { field: 'key', flex: 1.5 },
    {
      field: 'value',
      flex: 2,
      sortable: false,
      render: (row) => (row.is_secret ? '(secreto: no se muestra)' : (row.value ?? '')),
    },
    { field: 'description', flex: 2, sortable: false },
    { field: 'is_public', type: 'boolean', width: 100 },
  ],
  form: [
    { name: 'key', type: 'text', label: 'Clave', required: true, maxLength: 80 },
    { name: 'value', type: 'textarea', label: 'Valor', counter: true, maxLength: 20000 },
    { name: 'description', type: 'text', label: 'Descripcion', maxLength: 200 },
    { name: 'is_public', type: 'switch', label: 'Publica (se envia sin sesion)' },
  ],
});
