// The workshop records on the generic screen (a new one defaults to dealer 1, SPEC §3), with the
// template download and its upload (all rows or none, a report per row).
import { WORKSHOP_DEFAULTS, WORKSHOP_FILES, workshopCalls, workshopInfoContract } from '@app/contracts';
import FileDownload from '@mui/icons-material/FileDownload';
import UploadFile from '@mui/icons-material/UploadFile';
import { Box, Button } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { thisYear } from '../../fields/PeriodFields';
import { apiPath, download } from '../../lib/http';
import { ResourceScreen } from '../../resources/ResourceScreen';
import { defineScreen, type ResourceScreenDef } from '../../resources/types';
import { UploadDialog } from '../../resources/UploadDialog';
import { usePermission } from '../../session/session';

export const workshopScreen = defineScreen({
  contract: workshopInfoContract,
  columns: [
    'dealer_name',
    'dealer_branch_name',
    'year',
    'month',
    'work_orders_opened',
    'work_orders_closed',
    'hours_sold',
    'hours_worked',
    'labour_revenue',
    'parts_revenue',
  ],
  dialogWidth: 800,
  form: [
    { name: 'dealer_id', default: WORKSHOP_DEFAULTS.dealer_id, cols: 6 },
    { name: 'dealer_branch_id', cols: 6 },
    { name: 'year', default: thisYear(), cols: 3 },
    { name: 'month', cols: 3 },
    { name: 'work_orders_opened', cols: 3 },
    { name: 'work_orders_closed', cols: 3 },
    { name: 'hours_sold', cols: 3 },
    { name: 'hours_worked', cols: 3 },
    { name: 'labour_revenue', cols: 3 },
    { name: 'parts_revenue', cols: 3 },
    { name: 'accessories_revenue', cols: 4 },
    { name: 'warranty_orders', cols: 4 },
    { name: 'technicians', cols: 4 },
    'notes',
  ],
});

const template = () => void download(workshopCalls.template, WORKSHOP_FILES.template);

export default function WorkshopList() {
  const [uploading, setUploading] = useState(false);
  const canStore = usePermission('WorkshopInfos.store');
  const queryClient = useQueryClient();
  const def = useMemo<ResourceScreenDef>(
    () => ({
      ...workshopScreen,
      header: (
        <Box sx={{ display: 'flex', gap: 1, mb: 2, justifyContent: 'flex-end' }}>
          <Button startIcon={<FileDownload />} onClick={template}>
            Plantilla
          </Button>
          {canStore && (
            <Button variant="outlined" startIcon={<UploadFile />} onClick={() => setUploading(true)}>
              Cargar Excel
            </Button>
          )}
        </Box>
      ),
    }),
    [canStore],
  );
  return (
    <>
      <ResourceScreen def={def} />
      <UploadDialog
        open={uploading}
        title="Cargar información de taller"
        help="Una fila por concesionario, sede y mes, con las columnas de la plantilla. Un mes ya cargado se reemplaza."
        url={apiPath(workshopCalls.import)}
        jobKind="workshop-import"
        template={template}
        onClose={() => setUploading(false)}
        onSaved={() => void queryClient.invalidateQueries({ queryKey: ['list', 'workshop-infos'] })}
      />
    </>
  );
}
