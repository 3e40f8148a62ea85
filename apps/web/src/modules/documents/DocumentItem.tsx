// One document of the extranet's list: its title (opening it), its chips (new, status and
// audience for the manager), where and when it was published, its files to download, whether it
// was read, and the manager's edit and delete buttons.
import { DOCUMENT_STATUS_NAMES, type DocumentRow, type DocumentStatus } from '@app/contracts';
import CheckCircle from '@mui/icons-material/CheckCircle';
import Delete from '@mui/icons-material/Delete';
import Description from '@mui/icons-material/Description';
import Download from '@mui/icons-material/Download';
import Edit from '@mui/icons-material/Edit';
import Image from '@mui/icons-material/Image';
import PictureAsPdf from '@mui/icons-material/PictureAsPdf';
import TableChart from '@mui/icons-material/TableChart';
import { Box, Chip, IconButton, Stack, Tooltip, Typography } from '@mui/material';
import { day, moment, size } from './format';

const STATUS_COLORS: Record<DocumentStatus, 'success' | 'info' | 'default' | 'warning'> = {
  published: 'success',
  scheduled: 'info',
  expired: 'warning',
  hidden: 'default',
};

export function FileIcon({ mime }: { mime: string }) {
  if (mime === 'application/pdf') return <PictureAsPdf fontSize="small" color="error" />;
  if (/sheet|excel/.test(mime)) return <TableChart fontSize="small" color="success" />;
  if (mime.startsWith('image/')) return <Image fontSize="small" color="info" />;
  return <Description fontSize="small" color="primary" />;
}

export function DocumentItem({
  doc,
  manager,
  canUpdate,
  canDestroy,
  open,
  download,
  edit,
  remove,
}: {
  doc: DocumentRow;
  /** The manufacturer's view: status, audience and readers instead of new and read. */
  manager: boolean;
  canUpdate: boolean;
  canDestroy: boolean;
  open: (doc: DocumentRow) => void;
  download: (doc: DocumentRow, fileId: number, filename: string) => void;
  edit: (doc: DocumentRow) => void;
  remove: (doc: DocumentRow) => void;
}) {
  return (
    <Box
      key={doc.id}
      component="li"
      aria-label={doc.title}
      sx={{ listStyle: 'none', px: 2, py: 1.5, borderBottom: 1, borderColor: 'divider' }}
    >
      <Stack direction="row" spacing={2} sx={{ alignItems: 'flex-start' }}>
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
            <Typography
              component="button"
              onClick={() => open(doc)}
              sx={{
                all: 'unset',
                cursor: 'pointer',
                fontWeight: manager ? 600 : doc.read_at ? 400 : 700,
                '&:hover': { textDecoration: 'underline' },
              }}
            >
              {doc.title}
            </Typography>
            {!manager && !doc.read_at && <Chip size="small" color="primary" label="Nuevo" />}
            {manager && (
              <Chip
                size="small"
                variant="outlined"
                color={STATUS_COLORS[doc.status]}
                label={DOCUMENT_STATUS_NAMES[doc.status]}
              />
            )}
            {manager && (
              <Chip
                size="small"
                variant="outlined"
                label={
                  doc.all_dealers
                    ? 'Todos los concesionarios'
                    : `${doc.dealer_ids.length} concesionario${doc.dealer_ids.length === 1 ? '' : 's'}`
                }
              />
            )}
          </Stack>
          <Typography variant="body2" color="text.secondary">
            {doc.category_name} · Publicado {day(doc.published_at)}
            {doc.expires_at ? ` · Vence ${day(doc.expires_at)}` : ''}
          </Typography>
          {doc.description && (
            <Typography variant="body2" sx={{ mt: 0.5 }} noWrap>
              {doc.description}
            </Typography>
          )}
          <Stack direction="row" spacing={1} sx={{ mt: 1, flexWrap: 'wrap', rowGap: 1 }}>
            {doc.files.map((f) => (
              <Chip
                key={f.id}
                icon={<FileIcon mime={f.mime} />}
                label={`${f.filename} (${size(f.bytes)})`}
                onClick={() => download(doc, f.id, f.filename)}
                onDelete={() => download(doc, f.id, f.filename)}
                deleteIcon={
                  <Tooltip title="Descargar">
                    <Download aria-label={`Descargar ${f.filename}`} />
                  </Tooltip>
                }
                variant="outlined"
              />
            ))}
          </Stack>
        </Box>
        <Stack sx={{ alignItems: 'flex-end', minWidth: 150 }} spacing={0.5}>
          {manager ? (
            <Typography variant="caption" color="text.secondary">
              {doc.readers
                ? `Leído por ${doc.readers} usuario${doc.readers === 1 ? '' : 's'} de concesionarios`
                : 'Aún no lo lee ningún concesionario'}
            </Typography>
          ) : doc.read_at ? (
            <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
              <CheckCircle fontSize="small" color="success" />
              <Typography variant="caption" color="text.secondary">
                Leído {moment(doc.read_at)}
              </Typography>
            </Stack>
          ) : (
            <Typography variant="caption" color="primary">
              Sin leer
            </Typography>
          )}
          {(canUpdate || canDestroy) && (
            <Stack direction="row">
              {canUpdate && (
                <IconButton size="small" aria-label={`Editar ${doc.title}`} onClick={() => edit(doc)}>
                  <Edit fontSize="small" />
                </IconButton>
              )}
              {canDestroy && (
                <IconButton size="small" aria-label={`Eliminar ${doc.title}`} onClick={() => remove(doc)}>
                  <Delete fontSize="small" />
                </IconButton>
              )}
            </Stack>
          )}
        </Stack>
      </Stack>
    </Box>
  );
}
