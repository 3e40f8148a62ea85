// /preferences: general settings, general types and their values, and the raw configurations.
// Only one list is mounted at a time; switching tabs clears the list state of the URL.
import {
  configurationContract,
  generalTypeContract,
  messages,
  resourceCalls,
  typeValueContract,
} from '@app/contracts';
import ListIcon from '@mui/icons-material/List';
import { Autocomplete, Box, IconButton, Paper, Tab, Tabs, TextField, Tooltip } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { refreshGeneralTypes } from '../../lib/generalTypes';
import { call } from '../../lib/http';
import { ResourceScreen } from '../../resources/ResourceScreen';
import { defineScreen, type ResourceScreenDef } from '../../resources/types';
import { GeneralSettings } from './GeneralSettings';
import { MailSchedules } from './MailSchedules';

// The three lists: general types, their values, configurations.
// A saved or deleted type or value refreshes the cached general types every select reads.
const generalTypeScreen = defineScreen({ contract: generalTypeContract, afterWrite: refreshGeneralTypes });

const typeValueScreen = defineScreen({ contract: typeValueContract, afterWrite: refreshGeneralTypes });

const configurationScreen = defineScreen({
  contract: configurationContract,
  columns: [
    'key',
    { field: 'value', render: (row) => (row.is_secret ? '(secreto: no se muestra)' : (row.value ?? '')) },
    'description',
    'is_public',
  ],
  form: ['key', 'value', 'description', { name: 'is_public', label: 'Pública (se envía sin sesión)' }],
});

const TABS = [
  'General',
  'Tipos generales',
  'Valores de tipo',
  'Configuraciones',
  'Correos programados',
] as const;
const TAB_KEY = 'preferences-tab';

export default function PreferencesScreen() {
  const [tab, setTab] = useState(() =>
    Math.min(Number(localStorage.getItem(TAB_KEY) ?? 0) || 0, TABS.length - 1),
  );
  const [typeId, setTypeId] = useState<number | null>(null);
  const [, setSearchParams] = useSearchParams();
  const types = useQuery({
    queryKey: ['lookup', 'general-types'],
    queryFn: () =>
      call(resourceCalls(generalTypeContract).list, { query: { perPage: -1 } }) as Promise<
        { id: number; code: string; name: string }[]
      >,
  });

  const open = (next: number) => {
    localStorage.setItem(TAB_KEY, String(next));
    setSearchParams(new URLSearchParams(), { replace: true });
    setTab(next);
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: open only touches state setters
  const typesDef = useMemo<ResourceScreenDef>(
    () => ({
      ...generalTypeScreen,
      actionsWidth: 150,
      rowActions: (row) => (
        <Tooltip title="Valores">
          <IconButton
            size="small"
            aria-label="Valores"
            onClick={() => {
              setTypeId(row.id);
              open(2);
            }}
          >
            <ListIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      ),
    }),
    [],
  );
  const valuesDef = useMemo<ResourceScreenDef>(
    () => ({ ...typeValueScreen, fixedFilters: typeId ? { general_type_id: typeId } : undefined }),
    [typeId],
  );
  const selectedType = types.data?.find((t) => t.id === typeId) ?? null;

  return (
    <Box>
      <Paper sx={{ mb: 2 }}>
        <Tabs value={tab} onChange={(_e, v) => open(v)} variant="scrollable">
          {TABS.map((t) => (
            <Tab key={t} label={t} />
          ))}
        </Tabs>
      </Paper>
      {tab === 0 && (
        <Paper sx={{ p: 2 }}>
          <GeneralSettings />
        </Paper>
      )}
      {tab === 1 && <ResourceScreen def={typesDef} />}
      {tab === 2 && (
        <>
          <Paper sx={{ p: 2, mb: 2 }}>
            <Autocomplete
              options={types.data ?? []}
              value={selectedType}
              getOptionLabel={(o) => `${o.name} (${o.code})`}
              isOptionEqualToValue={(a, b) => a.id === b.id}
              onChange={(_e, v) => {
                setSearchParams(new URLSearchParams(), { replace: true });
                setTypeId(v?.id ?? null);
              }}
              noOptionsText={messages.emptySelect}
              renderInput={(params) => (
                <TextField {...params} label="Tipo general (todos si se deja vacío)" />
              )}
              sx={{ maxWidth: 480 }}
            />
          </Paper>
          <ResourceScreen key={typeId ?? 0} def={valuesDef} />
        </>
      )}
      {tab === 3 && <ResourceScreen def={configurationScreen} />}
      {tab === 4 && <MailSchedules />}
    </Box>
  );
}
