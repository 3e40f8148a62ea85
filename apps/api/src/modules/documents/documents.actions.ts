// The calls of the library beyond CRUD, declared on the engine: the upload (content-checked,
// stored), the download of a document's file (streamed, only to who may see the document:
// the target's dealer scope answers 404 otherwise), and the read mark.
import { documentCalls as calls, type DocumentFile } from '@app/contracts';
import { and, eq } from 'drizzle-orm';
import { defineAction } from '../../core/action';
import { NotFoundError } from '../../core/errors';
import { parseId } from '../../core/http';
import { withUploadedFile } from '../../core/upload';
import { contentDisposition } from '../../core/xlsx';
import { DOCUMENT_UPLOAD_RULE, markRead, storeUpload, sweepOrphans } from './documents.files';
import { documentResource } from './documents.resources';
import { documentFiles } from './documents.tables';

const tags = ['Documentos'];

const upload = defineAction({
  ...calls.upload,
  summary:
    'Sube un archivo (campo file, hasta 20 MB; PDF, Excel, Word, PowerPoint, PNG o JPG reconocidos por su contenido) y responde su id para adjuntarlo al documento (file_ids)',
  tags,
  access: { permission: 'Documents.store', or: ['Documents.update'] },
  rateLimit: 'upload',
  audit: { resource: 'documents', action: 'upload' },
  async handler({ app, request, user, write }): Promise<DocumentFile> {
    const storage = app.ctx.storage;
    // Housekeeping, not the caller's write: files left unlinked for hours go, on the app's
    // database (the call's own db reads only; its write is the upload below, audited).
    await sweepOrphans(app.ctx.handle.db, storage);
    return withUploadedFile(request, DOCUMENT_UPLOAD_RULE, (file) =>
      storeUpload(
        storage,
        file,
        (row) =>
          write(
            async (tx) => {
              const [saved] = await tx.insert(documentFiles).values(row).returning();
              return {
                id: saved.id,
                document_id: null,
                filename: saved.filename,
                mime: saved.mime,
                bytes: saved.bytes,
                created_at: saved.created_at.toISOString(),
              };
            },
            (saved) => ({
              recordId: null,
              after: { file_id: saved.id, filename: saved.filename, bytes: saved.bytes },
            }),
          ),
        user.id,
      ),
    );
  },
});

const download = defineAction({
  ...calls.file,
  summary:
    'Descarga un archivo del documento (con su nombre y tipo) y lo marca como leído; 404 si el documento no está publicado para el usuario. ?inline=1 lo abre en el navegador',
  tags,
  access: { permission: 'Documents.view' },
  audit: { exempt: 'El acuse de lectura propio al descargar' },
  target: documentResource,
  download: true,
  raw: true,
  async handler({ app, id, params, query, user, db, reply }) {
    const fileId = parseId(params.fileId);
    const [file] = await db
      .select()
      .from(documentFiles)
      .where(and(eq(documentFiles.id, fileId), eq(documentFiles.document_id, id)));
    if (!file) throw new NotFoundError();
    const stream = await app.ctx.storage.get(file.storage_key);
    if (!stream) throw new NotFoundError('El archivo no se encuentra en el almacenamiento');
    await markRead(db, id, user.id);
    const disposition = contentDisposition(file.filename);
    return reply
      .header('content-type', file.mime)
      .header('content-length', String(file.bytes))
      .header(
        'content-disposition',
        query.inline === '1' ? disposition.replace(/^attachment/, 'inline') : disposition,
      )
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', 'private, no-store')
      .send(stream);
  },
});

const read = defineAction({
  ...calls.read,
  summary: 'Marca el documento como leído por el usuario (al abrirlo)',
  tags,
  access: { permission: 'Documents.view' },
  audit: { exempt: 'El acuse de lectura propio del documento' },
  target: documentResource,
  async handler({ id, user, db }) {
    return { id, read_at: await markRead(db, id, user.id) };
  },
});

export const documentsActions = [upload, download, read];
