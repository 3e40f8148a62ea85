// OpenAPI at /api/docs, built from the route declarations (bodies from the zod schemas).
// Validation is ours (zod, Spanish messages): route schemas only document.

import { queryShape } from '@app/contracts';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';

/** A zod schema as JSON Schema 2020-12: what a body takes (input) or what a result is (output). */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output' = 'input'): Record<string, unknown> {
  try {
    const json = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<string, unknown>;
    delete json.$schema;
    return json;
  } catch {
    return { type: 'object' };
  }
}

/**
 * /api/docs of a query schema (contracts/query): each declared parameter with its type, bounds
 * and description (the values it takes, not its defaults' transforms).
 */
export function queryDocOf(schema: z.ZodType): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(queryShape(schema) ?? {})) {
    let json: Record<string, unknown> = {};
    try {
      json = z.toJSONSchema(field, { io: 'output', unrepresentable: 'any' }) as Record<string, unknown>;
    } catch {}
    delete json.$schema;
    const meta = z.globalRegistry.get(field) as { description?: string; type?: string } | undefined;
    const description = meta?.description;
    properties[key] = {
      ...(json.type ? json : { type: meta?.type ?? 'string' }),
      ...(description ? { description } : {}),
    };
  }
  return { type: 'object', properties };
}

// ---------- the contract of each operation ----------

/** What a route declares for its /api/docs operation beyond its body and query (see contractOf). */
export interface RouteContract {
  /** JSON schema of the envelope's `result` on success ({} when undeclared). */
  result?: Record<string, unknown>;
  /** The answer is a file of this type (downloads), not the envelope. */
  file?: string;
  /** multipart/form-data with one file (an upload). */
  upload?: boolean;
  access: 'public' | 'login' | 'permission';
  /** Names a record (:id or a target): 404 when it is not there or not the caller's. */
  record?: boolean;
  /** Writes: 409 on a duplicate or a record in use. */
  write?: boolean;
  /** Reads a JSON body (422 naming the field, 413 beyond the limit). */
  body?: boolean;
  /** Parses its query (422 naming the parameter). */
  query?: boolean;
  /** Limited per address (429). */
  rateLimited?: boolean;
  /** A big request answers 202 with a background job instead (GET /api/jobs/:id follows it). */
  job?: boolean;
  /** Checks credentials or a second factor in its body (401 even on a public call: the login). */
  credentials?: boolean;
  /** A further check of the caller beyond its permission (403 even on a login-only call). */
  checksCaller?: boolean;
  /** Statuses the call answers beyond those derived from the rest. */
  statuses?: number[];
}

/** The key of a route schema that carries its RouteContract to the document's transform. */
const CONTRACT_KEY = 'x-contract';

/** A route schema's contract entry: `{ ...schema, ...contractOf(c) }`. */
export const contractOf = (c: RouteContract) => ({ [CONTRACT_KEY]: c });

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const ERROR_TEXT: Record<number, string> = {
  400: 'Solicitud no válida (o sistema externo no configurado)',
  401: 'Sin sesión, sesión vencida o enlace de descarga no válido',
  403: 'Sin permiso para esta acción',
  404: 'El registro no existe o no es del concesionario del usuario',
  406: 'Se esperaba un formulario multipart',
  409: 'Conflicto: el valor ya existe o el registro está en uso',
  413: 'El contenido enviado es demasiado grande',
  414: 'La dirección (con su consulta) es demasiado larga',
  415: 'Tipo de contenido no soportado',
  422: 'Datos no válidos: cada error nombra el campo y la regla',
  429: 'Demasiadas solicitudes desde esta dirección; intente más tarde',
  503: 'Base de datos no disponible; intente nuevamente en unos segundos (Retry-After)',
};

/** The error envelope: {success: false, result: null, error: {code, message, ...}}. */
export const ERROR_ENVELOPE = {
  type: 'object',
  required: ['success', 'result', 'error'],
  properties: {
    success: { const: false },
    result: { type: 'null' },
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: { type: 'integer' },
        message: { type: 'string', description: 'En español, para el usuario' },
        details: { type: 'string' },
        validationErrors: {
          type: 'array',
          items: {
            type: 'object',
            required: ['field', 'message'],
            properties: { field: { type: 'string' }, message: { type: 'string' } },
          },
        },
      },
    },
  },
};

/** What an import answers (core/import-report bounds it): counts and the rows with errors. */
export const IMPORT_REPORT = {
  type: 'object',
  properties: {
    failed: { type: 'integer', description: 'Filas con errores' },
    report: {
      type: 'array',
      description: 'Hasta 200 filas, cada una con sus errores en español',
      items: { type: 'object', additionalProperties: true },
    },
    omitted: { type: 'integer', description: 'Filas con errores no listadas' },
    note: { type: 'string' },
  },
  additionalProperties: true,
};

/** A background job as GET /api/jobs/:id answers it (core/jobs jobView). */
export const JOB_VIEW = {
  type: 'object',
  required: ['id', 'kind', 'title', 'status', 'percent'],
  properties: {
    id: { type: 'string' },
    kind: { type: 'string' },
    title: { type: 'string' },
    status: { enum: ['queued', 'running', 'done', 'failed'] },
    done: { type: 'integer' },
    total: { type: ['integer', 'null'] },
    percent: { type: 'integer', minimum: 0, maximum: 100 },
    step: { type: ['string', 'null'] },
    error: { type: ['string', 'null'] },
    file_name: { type: ['string', 'null'] },
  },
  additionalProperties: true,
};

/** The success envelope around a result schema. */
export const envelopeOf = (result: Record<string, unknown> = {}) => ({
  type: 'object',
  required: ['success', 'result', 'error'],
  properties: { success: { const: true }, result, error: { type: 'null' } },
});

/** The statuses an operation may answer besides 200. */
export function errorStatuses(c: RouteContract): number[] {
  // 414: any address beyond MAX_URL_LENGTH (app.ts), before a route runs.
  const out = [400, 414, 503];
  if (c.access !== 'public' || c.credentials) out.push(401);
  if (c.access === 'permission' || c.checksCaller) out.push(403);
  if (c.record) out.push(404);
  if (c.write) out.push(409);
  if (c.body || c.upload) out.push(413, 422);
  if (c.body) out.push(415);
  if (c.query) out.push(422);
  if (c.upload) out.push(406, 422);
  if (c.rateLimited) out.push(429);
  out.push(...(c.statuses ?? []));
  return [...new Set(out)].sort((a, b) => a - b);
}

/** Path parameters, typed: ids are positive integers, a survey token its 43 characters. */
function paramsOf(url: string): Record<string, unknown> | undefined {
  const names = [...url.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1]!);
  if (!names.length) return undefined;
  const properties: Record<string, unknown> = {};
  for (const n of names)
    properties[n] =
      n === 'id' || /Id$/.test(n)
        ? { type: 'integer', minimum: 1, maximum: 2147483647 }
        : { type: 'string', minLength: 1, maxLength: 500 };
  return { type: 'object', required: names, properties };
}

/** The document's view of one route: its contract turned into responses, params and bodies. */
function transformRoute({ schema, url }: { schema: Record<string, unknown>; url: string }) {
  const { [CONTRACT_KEY]: raw, ...rest } = (schema ?? {}) as Record<string, unknown>;
  const c = (raw as RouteContract | undefined) ?? { access: rest.security ? 'public' : 'login' };
  const out: Record<string, unknown> = { ...rest };
  const params = paramsOf(url);
  if (params && !out.params) out.params = params;
  if (c.upload) {
    out.consumes = ['multipart/form-data'];
    out.body = {
      type: 'object',
      required: ['file'],
      properties: {
        file: { type: 'string', format: 'binary', description: 'El archivo (.xlsx, o el documento)' },
      },
    };
  }
  const response: Record<string, unknown> = {
    200: c.file
      ? {
          description: 'El archivo',
          content: { [c.file]: { schema: { type: 'string', format: 'binary' } } },
        }
      : { description: 'Respuesta correcta: {success: true, result, error: null}', ...envelopeOf(c.result) },
  };
  if (c.job)
    response[202] = {
      description: 'Trabajo en segundo plano (seguirlo con GET /api/jobs/:id)',
      ...envelopeOf(JOB_VIEW),
    };
  for (const status of errorStatuses(c))
    response[status] = { description: ERROR_TEXT[status] ?? 'Error', ...ERROR_ENVELOPE };
  out.response = response;
  return { schema: out, url };
}

export async function registerOpenApi(app: FastifyInstance, version: string): Promise<void> {
  // Route schemas are documentation only: the handlers validate with zod. Responses are added by
  // the document's transform, never to the routes (their answers are serialized as they are).
  app.setValidatorCompiler(() => () => true);
  await app.register(swagger, {
    openapi: {
      // JSON Schema 2020-12 (what zod writes) is OpenAPI 3.1's own dialect.
      openapi: '3.1.0',
      info: {
        title: 'Red de Concesionarios API',
        description:
          'Todas las respuestas JSON tienen la forma {success, result, error}; un error trae code y un mensaje en español (y validationErrors con el campo y la regla).',
        version,
      },
      components: {
        securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
      security: [{ bearerAuth: [] }],
    },
    transform: transformRoute as never,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });
}
