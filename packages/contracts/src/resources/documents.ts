// Documents and the extranet (issue 12): a document of the library (title, category, files, the
// dates it is published and expires, visible to every dealer or to chosen ones), the upload
// rules both sides check, and the shapes the extranet reads.

import { DATE_RE } from '../sales';
import { z } from '../zod';
import { defineContract, f, field, typeError } from './fields';

const dateRule = (l: string) => field.date(l);
const optDateRule = (l: string) =>
  z
    .preprocess(
      (v) => (v === '' ? null : v),
      z
        .string({ error: typeError(l) })
        .regex(DATE_RE, 'Formato de fecha YYYY-MM-DD')
        .nullable(),
    )
    .optional();

/** The file types the library accepts, recognised by their content (magic bytes), not by name. */
export const DOCUMENT_FILE_TYPES = [
  { kind: 'pdf', name: 'PDF', mime: 'application/pdf', extensions: ['pdf'] },
  {
    kind: 'xlsx',
    name: 'Excel',
    mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    extensions: ['xlsx', 'xlsm'],
  },
  {
    kind: 'docx',
    name: 'Word',
    mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    extensions: ['docx'],
  },
  {
    kind: 'pptx',
    name: 'PowerPoint',
    mime: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
    extensions: ['pptx'],
  },
  { kind: 'xls', name: 'Excel 97-2003', mime: 'application/vnd.ms-excel', extensions: ['xls'] },
  { kind: 'doc', name: 'Word 97-2003', mime: 'application/msword', extensions: ['doc'] },
  { kind: 'ppt', name: 'PowerPoint 97-2003', mime: 'application/vnd.ms-powerpoint', extensions: ['ppt'] },
  { kind: 'png', name: 'imagen PNG', mime: 'image/png', extensions: ['png'] },
  { kind: 'jpg', name: 'imagen JPG', mime: 'image/jpeg', extensions: ['jpg', 'jpeg'] },
] as const;
export type DocumentFileKind = (typeof DOCUMENT_FILE_TYPES)[number]['kind'];

const MB = 1024 * 1024;

/** POST /api/documents/upload: one file in the field "file". */
export const DOCUMENT_UPLOAD = {
  field: 'file',
  maxBytes: 20 * MB,
  maxFiles: 10,
  /** The input's accept attribute (the server checks the content anyway). */
  accept: DOCUMENT_FILE_TYPES.flatMap((t) => t.extensions.map((e) => `.${e}`)).join(','),
  messages: {
    noFile: 'Adjunte el archivo en el campo "file"',
    empty: 'El archivo está vacío',
    tooLarge: `El archivo supera el tamaño máximo de ${20} MB`,
    wrongType: 'Tipo de archivo no permitido: se aceptan PDF, Excel, Word, PowerPoint e imágenes PNG o JPG',
    executable:
      'El archivo es un programa ejecutable, no un documento: no se acepta aunque su nombre termine en .pdf u otra extensión permitida',
    mismatch: (name: string, ext: string) =>
      `El contenido del archivo es ${name} pero su nombre termina en .${ext}: renómbrelo con la extensión correcta`,
  },
} as const;

/** A document of the library. Dealer users list only what is published to them (server side). */
export const documentContract = defineContract(
  {
    path: 'documents',
    permission: 'Documents',
    title: 'Documentos',
    sort: { field: 'published_at', order: 'desc' },
  },
  {
    title: f.text('Título', 200, { search: true, sort: true, column: { flex: 2 } }),
    description: f.optText('Descripción', 2000, { search: true, input: 'textarea' }),
    category_id: f.ref('Categoría', 'categories', { input: 'select' }),
    category_name: f.display('Categoría', { search: true, sort: true, column: { width: 150 } }),
    published_at: f.rule('Fecha de publicación', dateRule, {
      input: 'date',
      sort: true,
      column: { width: 130, type: 'date' },
    }),
    expires_at: f.rule('Fecha de vencimiento', optDateRule, {
      input: 'date',
      sort: true,
      column: { width: 130, type: 'date' },
    }),
    all_dealers: f.bool('Visible para todos los concesionarios', { filter: true }),
    dealer_ids: f.rule(
      'Concesionarios',
      (l) =>
        z
          .array(field.ref(l), { error: typeError(l) })
          .max(500, `${l}: como máximo 500`)
          .optional(),
      { input: false },
    ),
    file_ids: f.rule(
      'Archivos',
      (l) =>
        z
          .array(field.ref(l), { error: typeError(l) })
          .max(DOCUMENT_UPLOAD.maxFiles, `Como máximo ${DOCUMENT_UPLOAD.maxFiles} archivos por documento`)
          .optional(),
      { input: false },
    ),
    file_count: f.display('Archivos', { column: { width: 90, type: 'number' } }),
    created_at: f.created(),
    active: f.active(),
  },
);

/** One file of a document: what the upload answers and the list shows. */
export interface DocumentFile {
  id: number;
  document_id: number | null;
  filename: string;
  mime: string;
  bytes: number;
  created_at?: string;
}

/** A row of GET /api/documents. */
export interface DocumentRow {
  id: number;
  title: string;
  description: string | null;
  category_id: number;
  category_name: string | null;
  published_at: string;
  expires_at: string | null;
  all_dealers: boolean;
  file_count: number;
  read_at: string | null;
  active: boolean;
  files: DocumentFile[];
  /** The chosen dealers (manufacturer users only; a dealer user gets []). */
  dealer_ids: number[];
  /** Dealer users who have opened it (manufacturer users only). */
  readers?: number;
  /** published | scheduled | expired | hidden (inactive). */
  status: DocumentStatus;
}

export type DocumentStatus = 'published' | 'scheduled' | 'expired' | 'hidden';
export const DOCUMENT_STATUS_NAMES: Record<DocumentStatus, string> = {
  published: 'Publicado',
  scheduled: 'Programado',
  expired: 'Vencido',
  hidden: 'Deshabilitado',
};

/** GET /api/documents: the page plus, for the caller, counts per category and unread. */
export interface DocumentList {
  total: number;
  totalIsEstimate?: boolean;
  data: DocumentRow[];
  /** Documents the caller sees per category (every category, whatever the filter). */
  categories: { category_id: number; count: number; unread: number }[];
  /** Documents the caller sees and has not opened yet. */
  unread: number;
}

/** This module's contracts (RESOURCE_CONTRACTS gathers every module's). */
export const DOCUMENT_CONTRACTS = [documentContract] as const;
