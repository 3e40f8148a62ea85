// The toolbar of /sales: template, import, survey invitations/reminders and the mail outbox.
import type { SalesFilter } from '@app/contracts';
import FileDownload from '@mui/icons-material/FileDownload';
import Inbox from '@mui/icons-material/Inbox';
import Send from '@mui/icons-material/Send';
import UploadFile from '@mui/icons-material/UploadFile';
import { Button } from '@mui/material';
import { useState } from 'react';
import { usePermission } from '../../session/session';
import { ImportDialog } from './ImportDialog';
import { OutboxDialog } from './OutboxDialog';
import { SendSurveysDialog } from './SendSurveysDialog';
import { downloadTemplate } from './template';

export function SalesActions({ filters, selected }: { filters: SalesFilter; selected: number[] }) {
  const canStore = usePermission('Sales.store');
  const canSend = usePermission('Sales.update');
  const canOutbox = usePermission('Admin.Preferences.view');
  const [open, setOpen] = useState<'import' | 'send' | 'outbox' | null>(null);
  return (
    <>
      <Button variant="text" startIcon={<FileDownload />} onClick={() => void downloadTemplate()}>
        Plantilla
      </Button>
      {canStore && (
        <Button variant="outlined" startIcon={<UploadFile />} onClick={() => setOpen('import')}>
          Importar ventas
        </Button>
      )}
      {canSend && (
        <Button variant="outlined" startIcon={<Send />} onClick={() => setOpen('send')}>
          Enviar encuestas
        </Button>
      )}
      {canOutbox && (
        <Button variant="text" startIcon={<Inbox />} onClick={() => setOpen('outbox')}>
          Bandeja de salida
        </Button>
      )}
      <ImportDialog open={open === 'import'} onClose={() => setOpen(null)} />
      <SendSurveysDialog
        open={open === 'send'}
        filters={filters}
        selected={selected}
        onClose={() => setOpen(null)}
      />
      <OutboxDialog open={open === 'outbox'} onClose={() => setOpen(null)} />
    </>
  );
}
