// Saved views of a list screen (modules/views on the server).

import { savedViewQuerySchema, savedViewSchema } from '../saved-views';
import { z } from '../zod';
import { defineCall } from './call';

const viewFields = {
  id: z.int(),
  screen: z.string(),
  name: z.string(),
  params: z.string(),
  role_id: z.int().nullable(),
};

export const savedViewCalls = {
  list: defineCall({
    method: 'GET',
    path: '/api/saved-views',
    query: savedViewQuerySchema,
    result: z.array(z.object({ ...viewFields, role_name: z.string().nullable(), own: z.boolean() })),
  }),
  save: defineCall({
    method: 'POST',
    path: '/api/saved-views',
    body: savedViewSchema,
    result: z.object({ ...viewFields, user_id: z.int(), created_at: z.string(), updated_at: z.string() }),
  }),
  remove: defineCall({ method: 'DELETE', path: '/api/saved-views/:id', result: z.object({ id: z.int() }) }),
};
