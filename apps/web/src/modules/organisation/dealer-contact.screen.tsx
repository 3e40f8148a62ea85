import { dealerContactContract } from '@app/contracts';
import { dealerField } from '../../fields/shared';
import { ResourceScreen } from '../../resources/ResourceScreen';
import { defineScreen } from '../../resources/types';

export const dealerContactScreen = defineScreen({
  contract: dealerContactContract,
  dealerFilter: 'dealer_id',
  columns: [
    { field: 'name', flex: 1.5 },
    { field: 'dealer_name', flex: 1.5 },
    { field: 'position' },
    { field: 'email' },
    { field: 'phone', sortable: false },
    { field: 'receives_alerts', type: 'boolean', sortable: false, width: 130 },
  ],
  form: [
    dealerField({ cols: 12 }),
    { name: 'name', type: 'text', label: 'Nombre', required: true },
    { name: 'position', type: 'text', label: 'Cargo' },
    { name: 'email', type: 'email', label: 'Email' },
    { name: 'phone', type: 'phone', label: 'Telefono' },
    { name: 'receives_alerts', type: 'switch', label: 'Recibe alertas', cols: 6 },
    { name: 'active', type: 'switch', label: 'Habilitado', cols: 6 },
  ],
});

export default function DealerContactScreen() {
  return <ResourceScreen def={dealerContactScreen} />;
}
