// Toolbar selectors of the dealer (searched: a big catalogue) and the manufacturer (brand).
import { dealerContract, manufacturerContract, messages, resourceCalls } from '@app/contracts';
import { Autocomplete, MenuItem, TextField, useMediaQuery, useTheme } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useSearchedRecords } from '../fields/useSearchedRecords';
import { call } from '../lib/http';
import { useGlobalFilters } from '../session/filters';
import { usePermission } from '../session/session';

const dealerCalls = resourceCalls(dealerContract);

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
  const { dealerId, dealerLocked } = useGlobalFilters();
  return dealerLocked ? <OwnDealer dealerId={dealerId} /> : <DealerSearch />;
}

/** A dealer user: its own dealer, locked, no 'Todos' (SPEC §6). */
function OwnDealer({ dealerId }: { dealerId: number }) {
  const own = useQuery({
    queryKey: ['dealers', 'own', dealerId],
    queryFn: () => call(dealerCalls.get, { params: { id: dealerId } }, { silent: true }) as Promise<Item>,
    enabled: dealerId > 0,
  });
  return (
    <TextField
      select
      label="Concesionario"
      value={dealerId}
      disabled
      sx={selectSx}
      fullWidth={false}
      slotProps={{
        inputLabel: { shrink: true },
        input: { notched: false },
        htmlInput: { 'data-testid': 'dealer-selector' },
      }}
    >
      <MenuItem value={dealerId}>{own.data?.name ?? 'Mi concesionario'}</MenuItem>
    </TextField>
  );
}

const ALL: Item = { id: 0, name: 'Todos' };

/**
 * Everyone else: 'Todos' or a dealer searched as typed (dealers are a big catalogue: the chosen
 * one is read by its id, the table is never loaded whole).
 */
function DealerSearch() {
  const { dealerId, setDealerId } = useGlobalFilters();
  const canList = usePermission('Admin.Dealers.view');
  const [text, setText] = useState('');
  const found = useSearchedRecords<Item>('dealers', text, canList);
  const chosen = useQuery({
    queryKey: ['options', 'dealers', 'one', String(dealerId)],
    queryFn: () => call(dealerCalls.get, { params: { id: dealerId } }, { silent: true }) as Promise<Item>,
    enabled: dealerId > 0,
  });
  const current = dealerId > 0 ? (chosen.data ?? { id: dealerId, name: '…' }) : ALL;
  const options = [ALL, ...(dealerId > 0 ? [current] : []), ...found.filter((o) => o.id !== dealerId)];
  return (
    <Autocomplete<Item, false, true, false>
      options={options}
      value={current}
      disableClearable
      getOptionLabel={(o) => o.name}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      filterOptions={(list) => list}
      noOptionsText={messages.emptySelect}
      onInputChange={(_, v, reason) => {
        if (reason === 'input') setText(v);
      }}
      onChange={(_, v) => {
        setText('');
        setDealerId(v?.id ?? 0);
      }}
      sx={selectSx}
      renderInput={(params) => (
        <TextField
          {...params}
          label="Concesionario"
          placeholder="Buscar concesionario"
          InputLabelProps={{ ...params.InputLabelProps, shrink: true }}
          InputProps={{ ...params.InputProps, notched: false } as typeof params.InputProps}
          inputProps={{ ...params.inputProps, 'data-testid': 'dealer-selector', 'data-value': dealerId }}
        />
      )}
    />
  );
}

export function ManufacturerSelector() {
  const { manufacturerId, setManufacturerId } = useGlobalFilters();
  const list = useQuery({
    queryKey: ['manufacturers', 'active'],
    queryFn: () =>
      call(resourceCalls(manufacturerContract).list, { query: { perPage: -1 } }, { silent: true }) as Promise<
        Item[]
      >,
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

/**
 * Phones and small tablets (below `md`): the Shell's menu is a temporary drawer, and the dealer and
 * brand selectors sit at its top instead of in the toolbar.
 */
export function useSmallScreen(): boolean {
  const theme = useTheme();
  return useMediaQuery(theme.breakpoints.down('md'), { noSsr: true });
}

/** Where the dealer and brand selectors are, as a screen's note says it. */
export function useSelectorsPlace(): string {
  return useSmallScreen() ? 'los elegidos al comienzo del menú' : 'los elegidos en la barra superior';
}
