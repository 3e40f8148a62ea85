// 'Auditoria': who changed what and when, read-only, for administrators (Admin.Audit.view).
// Filters by resource, user and date range; each row opens its before and after values.
import { AUDIT_RESOURCES, auditLogContract, formatDay, messages } from '@app/contracts';
import Visibility from '@mui/icons-material/Visibility';
import { Autocomplete, Box, Button, IconButton, Paper, TextField, Tooltip } from '@mui/material';
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { DateRangeFilter } from '../../fields/DateRangeFilter';
import { useSearchedRecords } from '../../fields/useSearchedRecords';
import { ResourceScreen } from '../../resources/ResourceScreen';
import { defineScreen, type ResourceScreenDef } from '../../resources/types';
import { AuditChangesDialog, resourceTitle } from './AuditChanges';

/** When it happened, in Lima's time as Peru writes it: 29/11/2026 14:05:09. */
export const formatDateTime = (v: unknown) => (v ? formatDay(v, true) : '');

interface AuditUser {
  id: number;
  username: string;
  full_name: string;
}

const auditScreen = defineScreen({
  contract: auditLogContract,
  columns: [
    { field: 'at', render: (row) => formatDateTime(row.at) },
    'username',
    // Filtered by the selector above, which names resources by their title.
    { field: 'resource', filter: false, render: (row) => resourceTitle(row.resource) },
    { field: 'record_id', filter: false },
    'action',
  ],
  form: [],
});

/** What the trail can be filtered by: every audited resource (the trail itself is not audited). */
const RESOURCES = AUDIT_RESOURCES.filter((r) => r.id !== auditLogContract.path);

export default function AuditScreen() {
  const [, setSearchParams] = useSearchParams();
  const [resource, setResource] = useState<{ id: string; name: string } | null>(null);
  const [user, setUser] = useState<AuditUser | null>(null);
  const [range, setRange] = useState({ from: '', to: '' });
  const [viewing, setViewing] = useState<number | null>(null);
  // Users searched as typed (never the whole table); without Admin.Users.view none are found and
  // no error toast opens the trail.
  const [userText, setUserText] = useState('');
  const found = useSearchedRecords<AuditUser>('users', userText);
  const userOptions = user ? [user, ...found.filter((u) => u.id !== user.id)] : found;

  const def = useMemo<ResourceScreenDef>(() => {
    const fixedFilters: Record<string, string | number> = {};
    if (resource) fixedFilters.resource = resource.id;
    if (user) fixedFilters.user_id = user.id;
    if (range.from) fixedFilters.date_from = range.from;
    if (range.to) fixedFilters.date_to = range.to;
    return {
      ...auditScreen,
      fixedFilters,
      rowActions: (row) => (
        <Tooltip title="Ver cambios">
          <IconButton size="small" aria-label="Ver cambios" onClick={() => setViewing(row.id)}>
            <Visibility fontSize="small" />
          </IconButton>
        </Tooltip>
      ),
    };
  }, [resource, user, range]);

  // A new filter starts again at page 1.
  const changed = () => setSearchParams(new URLSearchParams(), { replace: true });

  return (
    <Box>
      <Paper sx={{ p: 2, mb: 2, display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'center' }}>
        <Autocomplete
          options={RESOURCES}
          value={resource}
          getOptionLabel={(o) => o.name}
          isOptionEqualToValue={(a, b) => a.id === b.id}
          onChange={(_e, v) => {
            changed();
            setResource(v);
          }}
          noOptionsText={messages.emptySelect}
          size="small"
          renderInput={(p) => <TextField {...p} label="Recurso" helperText=" " />}
          sx={{ width: 220 }}
        />
        <Autocomplete
          options={userOptions}
          value={user}
          getOptionLabel={(o) => `${o.username} - ${o.full_name}`}
          isOptionEqualToValue={(a, b) => a.id === b.id}
          filterOptions={(list) => list}
          onInputChange={(_e, v, reason) => {
            if (reason === 'input') setUserText(v);
          }}
          onChange={(_e, v) => {
            changed();
            setUser(v);
          }}
          noOptionsText={messages.emptySelect}
          size="small"
          renderInput={(p) => <TextField {...p} label="Usuario" helperText=" " />}
          sx={{ width: 260 }}
        />
        <DateRangeFilter
          value={range}
          onChange={(r) => {
            changed();
            setRange(r);
          }}
        />
        <Button
          onClick={() => {
            changed();
            setResource(null);
            setUser(null);
            setRange({ from: '', to: '' });
          }}
        >
          Limpiar filtros
        </Button>
      </Paper>
      <ResourceScreen def={def} />
      <AuditChangesDialog id={viewing} onClose={() => setViewing(null)} />
    </Box>
  );
}
