// OpenAPI at /api/docs, built from the route declarations (bodies from the zod schemas).
// Validation is ours (zod, Spanish messages): route schemas only document.

import { queryShape } from '@app/contracts';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';

export function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> {
  try {
    const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
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

export async function registerOpenApi(app: FastifyInstance, version: string): Promise<void> {
  // Route schemas are documentation only: the handlers validate with zod.
  app.setValidatorCompiler(() => () => true);
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Red de Concesionarios API',
        description: 'Todas las respuestas tienen la forma {success, result, error}.',
        version,
      },
      components: {
        securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
      security: [{ bearerAuth: [] }],
    },
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });
}
