// Toolbar selectors of the dealer and the manufacturer (brand).
import { MenuItem, TextField } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { http } from '../api/http';
import { usePermission } from '../auth/session';
import { useGlobalFilters } from './filters';

interface Item {
  id: number;
  name: string;
  code?: string;
}

const selectSx = {
  minWidth: 170,
  maxWidth: 240,
  '& .MuiInputBase-root': { bgcolor: 'rgba(255,255,255,0.95)' },
  // The label sits above the box, in white on the toolbar.
  '& .MuiInputLabel-root.MuiInputLabel-shrink': {
    color: '#fff',
    transform: 'translate(2px, -17px) scale(0.75)',
  },
  mt: 1.5,
};

export function DealerSelector() {
  const { dealerId, dealerLocked, setDealerId } = useGlobalFilters();
  const canList = usePermission('Admin.Dealers.view');
  const list = useQuery({
    queryKey: ['dealers', 'active'],
    queryFn: () => http.get<Item[]>('/dealers', { perPage: -1 }, { silent: true }),
    enabled: canList && !dealerLocked,
  });
  const own = useQuery({
    queryKey: ['dealers', 'own', dealerId],
    queryFn: () => http.get<Item>(`/dealers/get/${dealerId}`, undefined, { silent: true }),
    enabled: dealerLocked && dealerId > 0,
  });
  const options: Item[] = dealerLocked
    ? [{ id: dealerId, name: own.data?.name ?? 'Mi concesionario' }]
    : [{ id: 0, name: 'Todos' }, ...(list.data ?? [])];
  const value = options.some((o) => o.id === dealerId) ? dealerId : dealerLocked ? dealerId : 0;
  return (
    <TextField
      select
      label="Concesionario"
      value={value}
      disabled={dealerLocked}
      onChange={(e) => setDealerId(Number(e.target.value))}
      sx={selectSx}
      fullWidth={false}
      slotProps={{
        inputLabel: { shrink: true },
        input: { notched: false },
        htmlInput: { 'data-testid': 'dealer-selector' },
      }}
    >
      {options.map((o) => (
        <MenuItem key={o.id} value={o.id}>
          {o.name}
        </MenuItem>
      ))}
    </TextField>
  );
}

export function ManufacturerSelector() {
  const { manufacturerId, setManufacturerId } = useGlobalFilters();
  const list = useQuery({
    queryKey: ['manufacturers', 'active'],
    queryFn: () => http.get<Item[]>('/manufacturers', { perPage: -1 }, { silent: true }),
  });
  const options: Item[] = [{ id: 0, name: 'Todas' }, ...(list.data ?? [])];
  const value = options.some((o) => o.id === manufacturerId) ? manufacturerId : 0;
  return (
    <TextField
      select
      label="Marca"
      value={value}
      onChange={(e) => setManufacturerId(Number(e.target.value))}
      sx={{ ...selectSx, minWidth: 130 }}
      fullWidth={false}
      slotProps={{ inputLabel: { shrink: true }, input: { notched: false } as any }}
    >
      {options.map((o) => (
        <MenuItem key={o.id} value={o.id}>
          {o.name}
        </MenuItem>
      ))}
    </TextField>
  );
}
