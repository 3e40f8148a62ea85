// The confirm dialog of SPEC §4: 'No' and 'Si, Seguro', 450px wide.
import { LIMITS, messages } from '@app/contracts';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, Typography } from '@mui/material';
import type { ReactNode } from 'react';

interface Props {
  open: boolean;
  title?: string;
  children: ReactNode;
  busy?: boolean;
  onNo: () => void;
  onYes: () => void;
}

export function ConfirmDialog({ open, title = 'Confirmar', children, busy, onNo, onYes }: Props) {
  return (
    <Dialog
      open={open}
      onClose={onNo}
      className="dialog-compact"
      slotProps={{ paper: { sx: { width: LIMITS.confirmDialogWidth, maxWidth: '95vw' } } }}
    >
      <DialogTitle>{title}</DialogTitle>
      <DialogContent>
        <Typography>{children}</Typography>
      </DialogContent>
      <DialogActions>
        <Button onClick={onNo} disabled={busy}>
          {messages.confirmNo}
        </Button>
        <Button onClick={onYes} variant="contained" color="error" disabled={busy} autoFocus>
          {messages.confirmYes}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
