// The files of the library: an upload checked by its content and stored (core/storage), files
// attached to their document when it is saved, the sweep of files left unattached, the read
// marks, and what the list adds to each page (files, the caller's read mark, counts).
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import {
  DOCUMENT_FILE_TYPES,
  DOCUMENT_UPLOAD,
  type DocumentFile,
  type DocumentFileKind,
  type DocumentStatus,
} from '@app/contracts';
import { and, eq, inArray, isNotNull, isNull, lt, notInArray, type SQL, sql } from 'drizzle-orm';
import type { Executor, Tx } from '../../core/action';
import type { CurrentUser } from '../../core/context';
import { BadRequestError, ValidationError } from '../../core/errors';
import { detectFileKind } from '../../core/file-type';
import type { QueryParams } from '../../core/http';
import { limaToday } from '../../core/lima';
import type { Row } from '../../core/resource';
import type { FileStorage } from '../../core/storage';
import type { SpooledFile, UploadRule } from '../../core/upload';
import { users } from '../../db/schema';
import { documentDealers, documentFiles, documentReads, documents } from './documents.tables';

/** The upload rule of POST /api/documents/upload: any name (the content decides), the size cap. */
export const DOCUMENT_UPLOAD_RULE: UploadRule = {
  field: DOCUMENT_UPLOAD.field,
  maxBytes: DOCUMENT_UPLOAD.maxBytes,
  accept: /./,
  messages: {
    noFile: DOCUMENT_UPLOAD.messages.noFile,
    wrongType: DOCUMENT_UPLOAD.messages.wrongType,
    tooLarge: DOCUMENT_UPLOAD.messages.tooLarge,
  },
};

/** Unattached files older than this are removed (abandoned dialogs, deleted documents). */
export const ORPHAN_HOURS = 24;

type FileType = (typeof DOCUMENT_FILE_TYPES)[number];
const typeOf = (kind: DocumentFileKind): FileType => DOCUMENT_FILE_TYPES.find((t) => t.kind === kind)!;

const extensionOf = (name: string) => /\.([A-Za-z0-9]{1,8})$/.exec(name)?.[1]?.toLowerCase() ?? '';

/**
 * The accepted type of an uploaded file, from its content; the name's extension must agree
 * (an old Office file, whose content does not say Excel, Word or PowerPoint, is told by it).
 */
export async function checkDocumentFile(upload: SpooledFile): Promise<FileType> {
  const m = DOCUMENT_UPLOAD.messages;
  if (upload.bytes === 0) throw new BadRequestError(m.empty);
  const kind = await detectFileKind(upload.file);
  const ext = extensionOf(upload.filename);
  if (kind === 'executable') throw new BadRequestError(m.executable);
  if (kind === 'unknown' || kind === 'zip') throw new BadRequestError(m.wrongType);
  let type: FileType;
  if (kind === 'ole') {
    const legacy = DOCUMENT_FILE_TYPES.find(
      (t) => ['xls', 'doc', 'ppt'].includes(t.kind) && (t.extensions as readonly string[]).includes(ext),
    );
    if (!legacy) throw new BadRequestError(m.wrongType);
    type = legacy;
  } else type = typeOf(kind);
  if (ext && !(type.extensions as readonly string[]).includes(ext))
    throw new BadRequestError(m.mismatch(type.name, ext));
  return type;
}

/** Bidirectional controls (U+202A–U+202E, U+2066–U+2069): they make `gpj.exe` read as `exe.jpg`. */
const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069]/;

/**
 * A clean file name for downloads: no folders, no control characters (bidirectional ones
 * included), the type's extension.
 */
export function cleanFileName(name: string, type: FileType): string {
  const base = [...(name.split(/[\\/]/).pop() ?? '')]
    .filter((ch) => ch.charCodeAt(0) >= 32 && ch.charCodeAt(0) !== 127 && !BIDI_CONTROLS.test(ch))
    .join('')
    .trim()
    .slice(0, 200);
  return extensionOf(base) ? base : `${base || 'documento'}.${type.extensions[0]}`;
}

function sha256Of(file: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    createReadStream(file)
      .on('data', (c) => hash.update(c))
      .on('end', () => resolve(hash.digest('hex')))
      .on('error', reject);
  });
}

/** A storage key: documents/<year>/<month>/<random>.<ext> (nothing of the client's name). */
function newKey(type: FileType): string {
  const d = new Date();
  return `documents/${d.getUTCFullYear()}/${String(d.getUTCMonth() + 1).padStart(2, '0')}/${randomUUID()}.${type.extensions[0]}`;
}

/** Stores a checked upload and records it (unattached); the stored copy is removed if the row fails. */
export async function storeUpload(
  storage: FileStorage,
  upload: SpooledFile,
  save: (row: typeof documentFiles.$inferInsert) => Promise<DocumentFile>,
  userId: number | null,
): Promise<DocumentFile> {
  const type = await checkDocumentFile(upload);
  const key = newKey(type);
  const sha256 = await sha256Of(upload.file);
  await storage.put(key, upload.file);
  try {
    return await save({
      storage_key: key,
      filename: cleanFileName(upload.filename, type),
      mime: type.mime,
      bytes: upload.bytes,
      sha256,
      uploaded_by: userId,
    });
  } catch (err) {
    await storage.delete(key);
    throw err;
  }
}

const fileColumns = {
  id: documentFiles.id,
  document_id: documentFiles.document_id,
  filename: documentFiles.filename,
  mime: documentFiles.mime,
  bytes: documentFiles.bytes,
  created_at: documentFiles.created_at,
};

/** The files of some documents, in upload order. */
export async function filesOf(db: Executor, documentIds: number[]): Promise<DocumentFile[]> {
  if (!documentIds.length) return [];
  const rows = await db
    .select(fileColumns)
    .from(documentFiles)
    .where(inArray(documentFiles.document_id, documentIds))
    .orderBy(documentFiles.id);
  return rows.map((r) => ({ ...r, created_at: r.created_at.toISOString() }));
}

/**
 * Attaches the files of a save to its document: each must exist and be unattached or already
 * its own; the document's other files are detached (swept later).
 */
export async function attachFiles(tx: Tx, documentId: number, fileIds: number[]): Promise<void> {
  const ids = [...new Set(fileIds)];
  const found = await tx
    .select({ id: documentFiles.id, document_id: documentFiles.document_id })
    .from(documentFiles)
    .where(inArray(documentFiles.id, ids));
  const usable = new Set(
    found.filter((f) => f.document_id === null || f.document_id === documentId).map((f) => f.id),
  );
  const bad = ids.filter((id) => !usable.has(id));
  if (bad.length)
    throw ValidationError.field(
      'file_ids',
      `Archivo no válido (no existe o pertenece a otro documento): ${bad.join(', ')}. Vuelva a subirlo`,
    );
  await tx
    .update(documentFiles)
    .set({ document_id: null })
    .where(and(eq(documentFiles.document_id, documentId), notInArray(documentFiles.id, ids)));
  await tx.update(documentFiles).set({ document_id: documentId }).where(inArray(documentFiles.id, ids));
}

/** The chosen dealers of a document (none: it is for every dealer). */
export async function setDealers(tx: Tx, documentId: number, dealerIds: number[]): Promise<void> {
  await tx.delete(documentDealers).where(eq(documentDealers.document_id, documentId));
  const ids = [...new Set(dealerIds)];
  if (ids.length)
    await tx.insert(documentDealers).values(ids.map((dealer_id) => ({ document_id: documentId, dealer_id })));
}

/** Marks a document read by a user (the first time is kept). */
export async function markRead(db: Executor, documentId: number, userId: number): Promise<string> {
  await db.insert(documentReads).values({ document_id: documentId, user_id: userId }).onConflictDoNothing();
  const [row] = await db
    .select({ read_at: documentReads.read_at })
    .from(documentReads)
    .where(and(eq(documentReads.document_id, documentId), eq(documentReads.user_id, userId)));
  return row.read_at.toISOString();
}

/** Removes the files no document holds any more, older than ORPHAN_HOURS; answers how many. */
export async function sweepOrphans(db: Executor, storage: FileStorage, now = new Date()): Promise<number> {
  const before = new Date(now.getTime() - ORPHAN_HOURS * 3_600_000);
  const orphans = await db
    .select({ id: documentFiles.id, key: documentFiles.storage_key })
    .from(documentFiles)
    .where(and(isNull(documentFiles.document_id), lt(documentFiles.created_at, before)))
    .limit(500);
  for (const o of orphans) {
    await db.delete(documentFiles).where(and(eq(documentFiles.id, o.id), isNull(documentFiles.document_id)));
    await storage.delete(o.key);
  }
  return orphans.length;
}

export function documentStatus(row: Row, today = limaToday()): DocumentStatus {
  if (!row.active) return 'hidden';
  if (row.published_at > today) return 'scheduled';
  if (row.expires_at && row.expires_at < today) return 'expired';
  return 'published';
}

/**
 * GET /api/documents: each row with its files, the caller's read mark, its status and (for the
 * manufacturer) its chosen dealers; the page with the caller's counts per category and unread.
 */
export async function extendDocumentList(
  page: { total: number; totalIsEstimate?: boolean; data: Row[] },
  ctx: { query: QueryParams; db: Executor; user: CurrentUser },
  scope: (user: CurrentUser) => SQL,
) {
  const { db, user } = ctx;
  const ids = page.data.map((r) => r.id as number);
  const [files, reads, dealerRows, readers, counts] = await Promise.all([
    filesOf(db, ids),
    ids.length
      ? db
          .select({ document_id: documentReads.document_id, read_at: documentReads.read_at })
          .from(documentReads)
          .where(and(eq(documentReads.user_id, user.id), inArray(documentReads.document_id, ids)))
      : [],
    ids.length && !user.isDealer
      ? db
          .select({ document_id: documentDealers.document_id, dealer_id: documentDealers.dealer_id })
          .from(documentDealers)
          .where(inArray(documentDealers.document_id, ids))
      : [],
    // The manufacturer sees how many dealer users have opened each document.
    ids.length && !user.isDealer
      ? db
          .select({ document_id: documentReads.document_id, n: sql<number>`count(*)::int` })
          .from(documentReads)
          .innerJoin(users, eq(users.id, documentReads.user_id))
          .where(and(inArray(documentReads.document_id, ids), isNotNull(users.dealer_id)))
          .groupBy(documentReads.document_id)
      : [],
    db
      .select({
        category_id: documents.category_id,
        count: sql<number>`count(*)::int`,
        unread: sql<number>`count(*) filter (where not exists (select 1 from document_reads r where r.document_id = "documents"."id" and r.user_id = ${user.id}))::int`,
      })
      .from(documents)
      .where(user.isDealer ? scope(user) : eq(documents.active, true))
      .groupBy(documents.category_id),
  ]);
  const today = limaToday();
  const readAt = new Map(reads.map((r) => [r.document_id, r.read_at.toISOString()]));
  return {
    ...page,
    data: page.data.map((r) => ({
      ...r,
      files: files.filter((f) => f.document_id === r.id),
      read_at: readAt.get(r.id) ?? null,
      dealer_ids: dealerRows.filter((d) => d.document_id === r.id).map((d) => d.dealer_id),
      readers: user.isDealer ? undefined : (readers.find((x) => x.document_id === r.id)?.n ?? 0),
      status: documentStatus(r, today),
    })),
    categories: counts,
    unread: counts.reduce((n, c) => n + c.unread, 0),
  };
}
