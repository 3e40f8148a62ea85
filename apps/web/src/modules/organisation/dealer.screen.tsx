import { dealerContract } from '@app/contracts';
import { ResourceScreen } from '../../resources/ResourceScreen';
import { defineScreen } from '../../resources/types';

export const dealerScreen = defineScreen({
  contract: dealerContract,
  columns: [
    { field: 'code', width: 110 },
    { field: 'name', flex: 2 },
    { field: 'ruc', width: 130 },
    { field: 'zone_name' },
    { field: 'department_name', sortable: false },
    { field: 'province_name', sortable: false },
    { field: 'district_name' },
  ],
  form: [
    { name: 'code', type: 'text', label: 'Codigo', required: true, maxLength: 20 },
    { name: 'name', type: 'text', label: 'Nombre', required: true },
    { name: 'ruc', type: 'text', label: 'RUC', maxLength: 11 },
    { name: 'email', type: 'email', label: 'Email' },
    {
      name: 'company_id',
      type: 'select',
      label: 'Empresa',
      resource: 'companies',
      autocomplete: true,
      clearable: true,
    },
    { name: 'zone_id', type: 'select', label: 'Zona', resource: 'zones', clearable: true },
    {
      name: 'location',
      type: 'location',
      label: 'Ubicacion',
      locationFields: { department: 'department_id', province: 'province_id', district: 'district_id' },
    },
    { name: 'address_address1', type: 'text', label: 'Direccion', cols: 12 },
    { name: 'address_phone', type: 'phone', label: 'Telefono' },
    { name: 'address_phone_mobile', type: 'phone', label: 'Celular' },
    { name: 'active', type: 'switch', label: 'Habilitado' },
  ],
});

export default function DealerScreen() {
  return <ResourceScreen def={dealerScreen} />;
}
