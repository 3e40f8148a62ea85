// Import of the sales template (the shared upload dialog), or of a period pulled from the
// external sales system (POST /api/sales-api): the same all-or-nothing report either way.
import { salesCalls } from '@app/contracts';
import CloudDownload from '@mui/icons-material/CloudDownload';
import { Box, Button, Typography } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { DateRangeFilter } from '../../fields/DateRangeFilter';
import { apiPath, call } from '../../lib/http';
import { UploadDialog } from '../../resources/UploadDialog';
import { downloadTemplate } from './template';

export function ImportDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [range, setRange] = useState({ from: '', to: '' });
  return (
    <UploadDialog
      open={open}
      title="Importar ventas"
      help="Complete la plantilla (.xlsx) con una venta por fila."
      url={apiPath(salesCalls.import)}
      jobKind="sales-import"
      template={() => void downloadTemplate()}
      onClose={onClose}
      onSaved={() => void queryClient.invalidateQueries({ queryKey: ['list', 'sales'] })}
      submitLabel="Importar"
      again="importarlo"
      reportLabel="Resultado de la importación"
      nothingSaved="No se guardó ninguna venta."
      savedText={(r) => {
        const warned = r.report.filter((e) => e.ok && e.warnings?.length).length;
        return `Se guardaron ${r.saved} de ${r.total} ventas${warned ? ` (${warned} con observaciones)` : ''}.`;
      }}
      extra={(run, busy) => (
        <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap', mb: 2 }}>
          <Typography variant="body2" sx={{ width: '100%' }} color="text.secondary">
            O traiga las ventas del sistema de ventas (API) de un periodo:
          </Typography>
          <DateRangeFilter value={range} onChange={setRange} />
          <Button
            variant="outlined"
            startIcon={<CloudDownload />}
            onClick={() =>
              void run(() =>
                call(
                  salesCalls.pull,
                  { body: { date_from: range.from || undefined, date_to: range.to || undefined } },
                  { silent: true },
                ),
              )
            }
            disabled={busy}
          >
            Traer del API de ventas
          </Button>
        </Box>
      )}
    />
  );
}
