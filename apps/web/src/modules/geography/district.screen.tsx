import { districtContract } from '@app/contracts';
import { ResourceScreen } from '../../resources/ResourceScreen';
import { defineScreen } from '../../resources/types';

export const screen = defineScreen({
  contract: districtContract,
  columns: [
    { field: 'code', width: 110 },
    { field: 'name', flex: 2 },
    { field: 'province_name', flex: 2 },
  ],
  form: [
    {
      name: 'province_id',
      type: 'select',
      label: 'Provincia',
      resource: 'provinces',
      autocomplete: true,
      required: true,
      cols: 12,
    },
    { name: 'code', type: 'text', label: 'Codigo', required: true, maxLength: 6 },
    { name: 'name', type: 'text', label: 'Nombre', required: true },
    { name: 'latitude', type: 'number', label: 'Latitud', min: -90, max: 90 },
    { name: 'longitude', type: 'number', label: 'Longitud', min: -180, max: 180 },
    { name: 'active', type: 'switch', label: 'Habilitado' },
  ],
});

export default function DistrictScreen() {
  return <ResourceScreen def={screen} />;
}
