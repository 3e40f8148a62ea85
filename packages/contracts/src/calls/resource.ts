// A resource's generic calls, from its contract's path (kept apart from call.ts, which the login
// bundle loads: this one builds a zod schema).

import { z } from '../zod';
import { defineCall } from './call';

/** A record's body as the generic calls take it (the server parses it with the contract's schema). */
const recordBody = z.record(z.string(), z.unknown());

/**
 * The generic calls of a resource (core/resource-routes on the server): the list, one record,
 * the select search, create, update, delete and the .xlsx export, all from its contract's path.
 */
export function resourceCalls<const P extends string>(resource: P | { path: P }) {
  const base = `/api/${typeof resource === 'string' ? resource : resource.path}` as `/api/${P}`;
  return {
    list: defineCall({ method: 'GET', path: base, anyQuery: true }),
    get: defineCall({ method: 'GET', path: `${base}/get/:id` }),
    search: defineCall({ method: 'GET', path: `${base}/query-search`, anyQuery: true }),
    create: defineCall({ method: 'POST', path: base, body: recordBody }),
    update: defineCall({ method: 'PUT', path: `${base}/:id`, body: recordBody }),
    remove: defineCall({ method: 'DELETE', path: `${base}/:id` }),
    export: defineCall({ method: 'GET', path: `${base}/export`, file: true, anyQuery: true }),
  };
}
