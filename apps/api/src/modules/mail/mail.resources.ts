// The mail outbox, declared read-only: every message the product sent or keeps pending while
// SMTP is missing (administrators, under Preferencias). Paging, search, filters and export come
// from the engine; the older `?status=` parameter keeps working.
import { inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import { ValidationError } from '../../core/errors';
import { defineResource } from '../../core/resource';
import { mailOutbox } from '../../db/schema';

const OUTBOX_STATUSES = ['pending', 'sent', 'failed'];

export const outboxResource = defineResource({
  name: 'mail-outbox',
  path: 'mail-outbox',
  table: mailOutbox,
  schema: z.object({}),
  readOnly: true,
  permission: 'Admin.Preferences',
  label: 'Bandeja de salida',
  labels: {
    to: 'Para',
    subject: 'Asunto',
    text: 'Texto',
    status: 'Estado',
    error: 'Error',
    sent_at: 'Enviado',
    created_at: 'Fecha',
    attachment_names: 'Adjuntos',
    updated_at: 'Actualizado',
  },
  // The names of the files sent with it (the contents stay in the row, never answered).
  display: {
    attachment_names: sql<
      string | null
    >`(select string_agg(a->>'filename', ', ') from jsonb_array_elements(coalesce(${mailOutbox.attachments}, '[]'::jsonb)) a)`,
  },
  // The HTML body is for the recipient; the screen shows the text.
  hidden: ['html', 'attachments'],
  pageSize: 10,
  searchable: ['to', 'subject'],
  sortable: ['id', 'created_at', 'to', 'subject', 'status', 'sent_at'],
  defaultSort: { field: 'id', order: 'desc' },
  filterHandlers: {
    status: (v) => {
      if (v === '') return undefined;
      const values = v.split(',').map((s) => s.trim());
      if (!values.every((s) => OUTBOX_STATUSES.includes(s)))
        throw ValidationError.field('status', 'Estado no es válido (pending, sent, failed)');
      return inArray(mailOutbox.status, values);
    },
  },
  plainFilters: ['status'],
  listColumns: ['id', 'created_at', 'to', 'subject', 'status', 'sent_at', 'error', 'attachment_names'],
});
