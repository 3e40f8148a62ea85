// The extranet's documents beyond their resource: the upload of a file, its download and the
// read receipt (modules/documents on the server).

import { defineQuery, textParam } from '../query';
import { z } from '../zod';
import { defineCall } from './call';

/** A stored file of a document (attached or still waiting to be). */
export const documentFileSchema = z.object({
  id: z.int(),
  document_id: z.int().nullable(),
  filename: z.string(),
  mime: z.string(),
  bytes: z.int(),
  created_at: z.string().optional(),
});

export const documentCalls = {
  upload: defineCall({
    method: 'POST',
    path: '/api/documents/upload',
    upload: true,
    result: documentFileSchema,
  }),
  file: defineCall({
    method: 'GET',
    path: '/api/documents/:id/files/:fileId',
    query: defineQuery({
      inline: textParam(20).meta({ description: '1: Content-Disposition inline (ver en el navegador)' }),
    }),
    file: true,
  }),
  read: defineCall({
    method: 'POST',
    path: '/api/documents/:id/read',
    result: z.object({ id: z.int(), read_at: z.string() }),
  }),
};
