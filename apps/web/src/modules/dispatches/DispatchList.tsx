// The dispatches as a list (the declared resource): search, filters, export, a dispatch by hand.
import { dispatchContract } from '@app/contracts';
import { Chip } from '@mui/material';
import { ResourceScreen } from '../../resources/ResourceScreen';
import { defineScreen } from '../../resources/types';

const def = defineScreen({
  contract: dispatchContract,
  columns: [
    'dispatch_date',
    'dealer_name',
    'stored_office_name',
    'manufacturer_name',
    'model_name',
    'vin',
    'units',
    'invoice',
    {
      field: 'source',
      render: (row) => (
        <Chip
          size="small"
          variant="outlined"
          label={row.source}
          color={row.source === 'SIMA' ? 'info' : 'default'}
        />
      ),
    },
  ],
  form: [
    'dealer_id',
    { name: 'dispatch_date', default: 'today', cols: 6 },
    { name: 'stored_office_id', cols: 6 },
    'manufacturer_id',
    { name: 'manufacturer_model_id', cols: 6 },
    { name: 'model_name', cols: 6 },
    { name: 'vin', cols: 6 },
    { name: 'units', cols: 3, default: 1 },
    { name: 'invoice', cols: 3 },
  ],
});

export default function DispatchList() {
  return <ResourceScreen def={def} />;
}
