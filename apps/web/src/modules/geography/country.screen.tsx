import { countryContract } from '@app/contracts';
import { ResourceScreen } from '../../resources/ResourceScreen';
import { defineScreen } from '../../resources/types';

export const screen = defineScreen({
  contract: countryContract,
  columns: [
    { field: 'code', width: 110 },
    { field: 'name', flex: 2 },
  ],
  form: [
    { name: 'code', type: 'text', label: 'Codigo', required: true, maxLength: 3 },
    { name: 'name', type: 'text', label: 'Nombre', required: true },
    { name: 'active', type: 'switch', label: 'Habilitado' },
  ],
});

export default function CountryScreen() {
  return <ResourceScreen def={screen} />;
}
