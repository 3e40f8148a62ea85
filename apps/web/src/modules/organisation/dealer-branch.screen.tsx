import { dealerBranchContract } from '@app/contracts';
import { dealerField } from '../../fields/shared';
import { ResourceScreen } from '../../resources/ResourceScreen';
import { defineScreen } from '../../resources/types';

export const dealerBranchScreen = defineScreen({
  contract: dealerBranchContract,
  dealerFilter: 'dealer_id',
  columns: [
    { field: 'dealer_name', flex: 2 },
    { field: 'code', width: 110 },
    { field: 'name', flex: 2 },
    { field: 'district_name', sortable: false },
  ],
  form: [
    dealerField({ cols: 12 }),
    { name: 'code', type: 'text', label: 'Codigo', maxLength: 20 },
    { name: 'name', type: 'text', label: 'Nombre', required: true },
    {
      name: 'location',
      type: 'location',
      label: 'Ubicacion',
      locationFields: { department: 'department_id', province: 'province_id', district: 'district_id' },
    },
    { name: 'address_address1', type: 'text', label: 'Direccion', cols: 12 },
    { name: 'address_phone', type: 'phone', label: 'Telefono' },
    { name: 'active', type: 'switch', label: 'Habilitado' },
  ],
});

export default function DealerBranchScreen() {
  return <ResourceScreen def={dealerBranchScreen} />;
}
