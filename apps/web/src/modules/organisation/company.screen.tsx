import { companyContract } from '@app/contracts';
import { ResourceScreen } from '../../resources/ResourceScreen';
import { defineScreen } from '../../resources/types';
import { addressFields } from './address';

export const companyScreen = defineScreen({
  contract: companyContract,
  columns: [{ field: 'name', flex: 2 }, { field: 'ruc' }, { field: 'email', sortable: false }],
  form: [
    { name: 'name', type: 'text', label: 'Nombre', required: true, cols: 12 },
    { name: 'ruc', type: 'text', label: 'RUC', maxLength: 11 },
    { name: 'email', type: 'email', label: 'Email' },
    ...addressFields,
  ],
});

export default function CompanyScreen() {
  return <ResourceScreen def={companyScreen} />;
}
