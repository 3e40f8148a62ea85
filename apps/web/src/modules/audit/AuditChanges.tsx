// One audit entry: the fields that changed, with their value before and after.
import {
  AUDIT_ACTIONS,
  AUDITED_CALLS,
  auditLogContract,
  RESOURCE_CONTRACTS,
  resourceCalls,
} from '@app/contracts';
import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  LinearProgress,
  Switch,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { call } from '../../lib/http';

type Json = Record<string, unknown> | null;

interface Entry {
  id: number;
  at: string;
  username: string | null;
  resource: string;
  record_id: number | null;
  action: string;
  before: Json;
  after: Json;
}

const contracts = RESOURCE_CONTRACTS as Record<string, { title: string; labels: Record<string, string> }>;

/** What each audited action means, in the trail's words (AUDIT_ACTIONS of the contracts). */
export const ACTIONS: Record<string, string> = Object.fromEntries(AUDIT_ACTIONS.map((a) => [a.id, a.name]));

export const resourceTitle = (resource: string) =>
  contracts[resource]?.title ?? AUDITED_CALLS.find((c) => c.id === resource)?.name ?? resource;

const show = (v: unknown) => {
  if (v === null || v === undefined || v === '') return '—';
  if (typeof v === 'boolean') return v ? 'Sí' : 'No';
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
};

export function AuditChangesDialog({ id, onClose }: { id: number | null; onClose: () => void }) {
  const [all, setAll] = useState(false);
  const q = useQuery({
    queryKey: ['audit-entry', id],
    queryFn: () => call(resourceCalls(auditLogContract).get, { params: { id: id! } }) as Promise<Entry>,
    enabled: id !== null,
  });
  const e = q.data;
  const labels = (e && contracts[e.resource]?.labels) || {};
  const keys = e ? [...new Set([...Object.keys(e.before ?? {}), ...Object.keys(e.after ?? {})])] : [];
  const changed = (k: string) =>
    JSON.stringify(e?.before?.[k] ?? null) !== JSON.stringify(e?.after?.[k] ?? null);
  const rows = keys.filter((k) => all || !e?.before || !e?.after || changed(k));

  return (
    <Dialog
      open={id !== null}
      onClose={onClose}
      maxWidth={false}
      slotProps={{ paper: { sx: { width: 700 } } }}
    >
      <DialogTitle>Cambios del registro</DialogTitle>
      <DialogContent dividers>
        {q.isFetching && <LinearProgress />}
        {e && (
          <>
            <Typography variant="body2" sx={{ mb: 1 }}>
              <b>{e.username ?? 'Sistema'}</b> · {resourceTitle(e.resource)} #{e.record_id ?? '—'} ·{' '}
              {ACTIONS[e.action] ?? e.action} · {new Date(e.at).toLocaleString('es-PE')}
            </Typography>
            {e.before && e.after && (
              <FormControlLabel
                control={<Switch checked={all} onChange={(_ev, v) => setAll(v)} />}
                label="Mostrar también los campos sin cambios"
              />
            )}
            <Table size="small" aria-label="Cambios">
              <TableHead>
                <TableRow>
                  <TableCell>Campo</TableCell>
                  <TableCell>Antes</TableCell>
                  <TableCell>Después</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {rows.map((k) => (
                  <TableRow key={k} sx={changed(k) ? { bgcolor: 'warning.50' } : undefined}>
                    <TableCell>{labels[k] ?? k}</TableCell>
                    <TableCell sx={{ wordBreak: 'break-all' }}>{show(e.before?.[k])}</TableCell>
                    <TableCell sx={{ wordBreak: 'break-all', fontWeight: changed(k) ? 600 : undefined }}>
                      {show(e.after?.[k])}
                    </TableCell>
                  </TableRow>
                ))}
                {rows.length === 0 && (
                  <TableRow>
                    <TableCell colSpan={3}>Sin cambios de valores</TableCell>
                  </TableRow>
                )}
              </TableBody>
            </Table>
          </>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cerrar</Button>
      </DialogActions>
    </Dialog>
  );
}
