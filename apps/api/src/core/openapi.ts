// OpenAPI at /api/docs, built from the route declarations (bodies from the zod schemas).
// Validation is ours (zod, Spanish messages): route schemas only document.
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
