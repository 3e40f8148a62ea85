// The shell's calls: the global search and the background jobs (modules/search, modules/jobs).

import type { BackgroundJob } from '../jobs';
import { defineQuery, textParam } from '../query';
import { searchQuery } from '../search';
import { z } from '../zod';
import { defineCall } from './call';

const hit = z.object({ kind: z.string(), id: z.int(), title: z.string(), subtitle: z.string().nullable() });

/**
 * A background job as GET /api/jobs/:id answers it, its `result` (when done) of the given schema:
 * a call declaring it answers BackgroundJob<R>.
 */
export const backgroundJobOf = <R>(result: z.ZodType<R>): z.ZodType<BackgroundJob<R>> =>
  z.looseObject({
    id: z.string(),
    kind: z.string(),
    title: z.string(),
    status: z.enum(['queued', 'running', 'done', 'failed']),
    done: z.int(),
    total: z.int().nullable(),
    percent: z.int().min(0).max(100),
    step: z.string().nullable(),
    result: result.nullable(),
    error: z.string().nullable(),
    file_name: z.string().nullable(),
    created_at: z.string(),
    started_at: z.string().nullable(),
    finished_at: z.string().nullable(),
    expires_at: z.string(),
  });

/** A background job of any kind (its result unknown until the kind says it). */
export const backgroundJobSchema = backgroundJobOf(z.unknown());

export const shellCalls = {
  search: defineCall({
    method: 'GET',
    path: '/api/search',
    query: searchQuery,
    result: z.object({
      q: z.string(),
      groups: z.array(z.object({ kind: z.string(), title: z.string(), hits: z.array(hit) })),
    }),
  }),
  job: defineCall({ method: 'GET', path: '/api/jobs/:id', result: backgroundJobSchema }),
  jobs: defineCall({
    method: 'GET',
    path: '/api/jobs',
    query: defineQuery({
      kind: textParam(40).meta({ description: 'Tipo de trabajo, p. ej. sales-import' }),
    }),
    result: z.array(backgroundJobSchema),
  }),
  jobFile: defineCall({ method: 'GET', path: '/api/jobs/:id/file', file: true }),
};
