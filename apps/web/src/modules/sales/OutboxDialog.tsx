// The mail outbox (administrators): every mail the product sent or keeps pending without SMTP.
import { preferenceCalls } from '@app/contracts';
import {
  Alert,
  Box,
  Button,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  MenuItem,
  TextField,
} from '@mui/material';
import { DataGrid, type GridColDef } from '@mui/x-data-grid';
import { esES } from '@mui/x-data-grid/locales';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { enqueueSnackbar } from 'notistack';
import { useState } from 'react';
import { call } from '../../lib/http';
import { loadingGridSlotProps } from '../../resources/gridA11y';
import { usePermission } from '../../session/session';

interface OutboxRow {
  id: number;
  to: string;
  subject: string;
  text: string;
  status: 'pending' | 'sent' | 'failed';
  error: string | null;
  sent_at: string | null;
  created_at: string;
}

const STATUS = [
  { id: 'pending', name: 'Pendiente', color: 'warning' },
  { id: 'sent', name: 'Enviado', color: 'success' },
  { id: 'failed', name: 'Fallido', color: 'error' },
] as const;

export const formatDateTime = (iso: string | null | undefined) =>
  iso ? new Date(iso).toLocaleString('es-PE', { dateStyle: 'short', timeStyle: 'short' }) : '';

const columns: GridColDef<OutboxRow>[] = [
  { field: 'created_at', headerName: 'Fecha', width: 140, valueFormatter: (v) => formatDateTime(v) },
  { field: 'to', headerName: 'Para', flex: 1 },
  { field: 'subject', headerName: 'Asunto', flex: 1.5 },
  {
    field: 'status',
    headerName: 'Estado',
    width: 110,
    renderCell: (p) => {
      const s = STATUS.find((x) => x.id === p.value);
      return <Chip size="small" variant="outlined" label={s?.name ?? p.value} color={s?.color} />;
    },
  },
];

export function OutboxDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const canFlush = usePermission('Admin.Preferences.update');
  const [status, setStatus] = useState('');
  const [page, setPage] = useState({ page: 0, pageSize: 10 });
  const [shown, setShown] = useState<OutboxRow | null>(null);
  const list = useQuery({
    queryKey: ['mail-outbox', status, page],
    queryFn: () =>
      call(preferenceCalls.outbox, {
        query: { page: page.page + 1, perPage: page.pageSize, status },
      }) as Promise<{ total: number; data: OutboxRow[] }>,
    enabled: open,
    placeholderData: keepPreviousData,
  });
  const flush = async () => {
    try {
      const r = await call(preferenceCalls.flushOutbox);
      enqueueSnackbar(`Enviados: ${r.sent}. Fallidos: ${r.failed}. Pendientes: ${r.pending}`, {
        variant: 'success',
      });
      await list.refetch();
    } catch {
      // toast shown by the client
    }
  };
  return (
    <Dialog open={open} onClose={onClose} maxWidth="lg" fullWidth>
      <DialogTitle>Bandeja de salida de correo</DialogTitle>
      <DialogContent dividers>
        <Box sx={{ display: 'flex', gap: 1, mb: 2 }}>
          <TextField
            select
            label="Estado"
            value={status}
            onChange={(e) => {
              setStatus(e.target.value);
              setPage((p) => ({ ...p, page: 0 }));
            }}
            sx={{ width: 180 }}
            fullWidth={false}
          >
            <MenuItem value="">Todos</MenuItem>
            {STATUS.map((s) => (
              <MenuItem key={s.id} value={s.id}>
                {s.name}
              </MenuItem>
            ))}
          </TextField>
        </Box>
        <DataGrid
          rows={list.data?.data ?? []}
          rowCount={list.data?.total ?? 0}
          columns={columns}
          loading={list.isFetching}
          slotProps={loadingGridSlotProps(list.isFetching)}
          paginationMode="server"
          paginationModel={page}
          onPaginationModelChange={setPage}
          pageSizeOptions={[10, 25, 50]}
          onRowClick={(p) => setShown(p.row)}
          localeText={esES.components.MuiDataGrid.defaultProps.localeText}
          disableColumnMenu
          autoHeight
          density="compact"
        />
        {shown && (
          <Alert
            severity={shown.status === 'failed' ? 'error' : 'info'}
            sx={{ mt: 2, whiteSpace: 'pre-line' }}
          >
            <strong>{shown.subject}</strong> — {shown.to}
            {'\n'}
            {shown.text}
            {shown.error ? `\nError: ${shown.error}` : ''}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        {canFlush && <Button onClick={() => void flush()}>Enviar pendientes</Button>}
        <Button onClick={onClose}>Cerrar</Button>
      </DialogActions>
    </Dialog>
  );
}
