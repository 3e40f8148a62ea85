// Preferences: general types and their values, key/value configurations, and the calls that
// read them as a whole (general-types-values, getUserConfigurations, configurations/save).

import {
  configurationContract,
  configurationsSaveSchema,
  generalTypeContract,
  SECRET_CONFIGURATION_KEY,
  typeValueContract,
} from '@app/contracts';
import { eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { writeAudit } from '../../core/audit';
import { currentUser, optionalAuth, requireAuth, requirePermission } from '../../core/auth';
import { ok } from '../../core/envelope';
import { ConflictError, ValidationError } from '../../core/errors';
import { parseBody } from '../../core/http';
import { defineModule } from '../../core/registry';
import { defineResource, fromContract } from '../../core/resource';
import { configurations, generalTypes, typeValues } from '../../db/schema';
import { CONFIGURATION_KEYS } from '../../seed/data';

const SECRET_SQL = SECRET_CONFIGURATION_KEY.source;

export const generalTypeResource = defineResource({
  ...fromContract(generalTypeContract),
  table: generalTypes,
  searchable: ['code', 'name'],
  sortable: ['id', 'code', 'name', 'active'],
  defaultSort: 'name',
  filters: ['active', 'code'],
  lookup: 'authenticated',
});

export const typeValueResource = defineResource({
  ...fromContract(typeValueContract),
  table: typeValues,
  joins: [{ table: generalTypes, on: eq(typeValues.general_type_id, generalTypes.id) }],
  display: { general_type_name: generalTypes.name, general_type_code: generalTypes.code },
  searchable: ['code', 'name', 'general_type_name'],
  sortable: ['id', 'code', 'name', 'order', 'general_type_name', 'active'],
  defaultSort: 'order',
  lookupOrder: 'order',
  filters: ['active', 'general_type_id', 'general_type_code'],
  lookup: 'authenticated',
});

export const configurationResource = defineResource({
  ...fromContract(configurationContract),
  table: configurations,
  // Secret values (passwords, tokens) are never answered, not even to administrators.
  display: {
    value: sql<
      string | null
    >`case when ${configurations.key} ~* ${SECRET_SQL} then null else ${configurations.value} end`,
    is_secret: sql<boolean>`${configurations.key} ~* ${SECRET_SQL}`,
  },
  searchable: ['key', 'description'],
  sortable: ['id', 'key', 'is_public'],
  defaultSort: 'key',
  lookupOrder: 'key',
  filters: ['is_public'],
  hooks: {
    beforeSave: (data, ctx) => {
      // Only the declared settings can be written, and a row keeps its key.
      if (ctx.action === 'update' && data.key !== undefined && data.key !== ctx.before?.key) {
        throw ValidationError.field('key', 'La clave de una configuracion no se puede cambiar');
      }
      const key = String(data.key ?? ctx.before?.key ?? '');
      assertDeclaredKey(key, 'key');
      // A secret answered as null and saved back unchanged keeps its stored value.
      if (ctx.action === 'update' && SECRET_CONFIGURATION_KEY.test(key) && (data.value ?? null) === null) {
        delete data.value;
      }
      return data;
    },
    // A declared setting stays (its value can be emptied); a leftover row of an unknown key goes.
    beforeDelete: (ctx) => {
      const key = String(ctx.before.key);
      if (CONFIGURATION_KEYS.has(key)) {
        throw new ConflictError(
          `No se puede eliminar la configuracion ${key}: es un ajuste del sistema. Para no usarla, deje su valor vacio.`,
        );
      }
    },
  },
});

const unknownKeyMessage = (key: string) =>
  `La clave ${key} no es una configuracion del sistema. Use una de las claves existentes.`;

/** 422 naming the key when it is not one of the declared settings (seed/data.ts). */
function assertDeclaredKey(key: string, field: string): void {
  if (!CONFIGURATION_KEYS.has(key)) throw ValidationError.field(field, unknownKeyMessage(key));
}

/** Settings as {key: value}; public ones only, or every non-secret one. */
async function readSettings(
  app: FastifyInstance,
  onlyPublic: boolean,
): Promise<Record<string, string | null>> {
  const rows = await app.ctx.handle.db
    .select({ key: configurations.key, value: configurations.value, is_public: configurations.is_public })
    .from(configurations);
  const out: Record<string, string | null> = {};
  for (const r of rows) {
    if (SECRET_CONFIGURATION_KEY.test(r.key)) continue;
    if (onlyPublic && !r.is_public) continue;
    out[r.key] = r.value;
  }
  return out;
}

export const preferencesModule = defineModule({
  name: 'preferences',
  resources: [generalTypeResource, typeValueResource, configurationResource],
  routes: preferencesRoutes,
});

function preferencesRoutes(app: FastifyInstance): void {
  app.get(
    '/api/getUserConfigurations',
    { preHandler: optionalAuth, schema: { tags: ['Configuraciones'], summary: 'Ajustes para el cliente' } },
    async (request) => ok(await readSettings(app, !request.auth)),
  );

  app.put(
    '/api/configurations/save',
    {
      preHandler: requirePermission('Admin.Preferences.update'),
      schema: { tags: ['Configuraciones'], summary: 'Guarda {clave: valor} y devuelve los ajustes' },
    },
    async (request) => {
      const user = currentUser(request);
      const body = parseBody(configurationsSaveSchema, request.body);
      const unknown = Object.keys(body).filter((key) => !CONFIGURATION_KEYS.has(key));
      if (unknown.length) {
        throw new ValidationError(unknown.map((key) => ({ field: key, message: unknownKeyMessage(key) })));
      }
      const entries = Object.entries(body).map(([key, v]) => [key, v === null ? null : String(v)] as const);
      await app.ctx.handle.db.transaction(async (tx) => {
        const keys = entries.map(([k]) => k);
        const before = keys.length
          ? await tx.select().from(configurations).where(inArray(configurations.key, keys))
          : [];
        for (const [key, value] of entries) {
          await tx
            .insert(configurations)
            .values({ key, value })
            .onConflictDoUpdate({ target: configurations.key, set: { value, updated_at: new Date() } });
        }
        const mask = (k: string, v: unknown) => (SECRET_CONFIGURATION_KEY.test(k) ? '***' : v);
        await writeAudit(tx, {
          user,
          resource: 'configurations',
          recordId: null,
          action: 'save',
          before: Object.fromEntries(before.map((r) => [r.key, mask(r.key, r.value)])),
          after: Object.fromEntries(entries.map(([k, v]) => [k, mask(k, v)])),
        });
      });
      return ok(await readSettings(app, false));
    },
  );

  app.get(
    '/api/general-types-values',
    { preHandler: requireAuth, schema: { tags: ['Tipos generales'], summary: 'Valores activos por tipo' } },
    async () => {
      const rows = await app.ctx.handle.db
        .select({
          type: generalTypes.code,
          id: typeValues.id,
          code: typeValues.code,
          name: typeValues.name,
          payload: typeValues.payload,
        })
        .from(typeValues)
        .innerJoin(generalTypes, eq(typeValues.general_type_id, generalTypes.id))
        .where(sql`${typeValues.active} and ${generalTypes.active}`)
        .orderBy(generalTypes.code, typeValues.order, typeValues.name);
      const out: Record<string, { id: number; code: string; name: string; payload: unknown }[]> = {};
      for (const { type, ...v } of rows) {
        out[type] = out[type] ?? [];
        out[type].push(v);
      }
      return ok(out);
    },
  );
}
