// A document opened from the extranet's list: where and when it was published, its description
// and its files to download.
import type { DocumentRow } from '@app/contracts';
import Download from '@mui/icons-material/Download';
import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  List,
  ListItem,
  ListItemButton,
  ListItemIcon,
  ListItemText,
  Typography,
} from '@mui/material';
import { FileIcon } from './DocumentItem';
import { day, size } from './format';

export function OpenedDocument({
  opened,
  close,
  download,
}: {
  opened: DocumentRow | null;
  close: () => void;
  download: (doc: DocumentRow, fileId: number, filename: string) => void;
}) {
  return (
    <Dialog open={!!opened} onClose={close} maxWidth="sm" fullWidth>
      {opened && (
        <>
          <DialogTitle>{opened.title}</DialogTitle>
          <DialogContent dividers>
            <Typography variant="body2" color="text.secondary" gutterBottom>
              {opened.category_name} · Publicado {day(opened.published_at)}
              {opened.expires_at ? ` · Vence ${day(opened.expires_at)}` : ''}
            </Typography>
            {opened.description && (
              <Typography sx={{ mb: 2, whiteSpace: 'pre-line' }}>{opened.description}</Typography>
            )}
            <List dense aria-label="Archivos">
              {opened.files.map((f) => (
                <ListItem key={f.id} disablePadding>
                  <ListItemButton onClick={() => download(opened, f.id, f.filename)}>
                    <ListItemIcon sx={{ minWidth: 32 }}>
                      <FileIcon mime={f.mime} />
                    </ListItemIcon>
                    <ListItemText primary={f.filename} secondary={size(f.bytes)} />
                    <Download fontSize="small" />
                  </ListItemButton>
                </ListItem>
              ))}
            </List>
          </DialogContent>
          <DialogActions>
            <Button onClick={close}>Cerrar</Button>
          </DialogActions>
        </>
      )}
    </Dialog>
  );
}
