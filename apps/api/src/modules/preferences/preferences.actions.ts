// The preferences calls beyond CRUD, declared on the engine (core/action): the settings the
// client reads (getUserConfigurations), saving several settings at once (configurations/save)
// and the active values of every general type (general-types-values).
import { preferenceCalls as calls, SECRET_CONFIGURATION_KEY } from '@app/contracts';
import { and, eq, inArray } from 'drizzle-orm';
import { defineAction, type Executor } from '../../core/action';
import { ValidationError } from '../../core/errors';
import { configurations, generalTypes, typeValues } from '../../db/schema';
import { CONFIGURATION_KEYS } from './declared-settings';
import { assertOutboundUrl } from './external-urls';
import { unknownKeyMessage } from './preferences.resources';

/**
 * The external systems' addresses and the mail settings (SALES_API_URL, CASIS_API_URL,
 * SIMA_API_URL, MAIL_FROM_*, SMTP_URL): read only by who may see the preferences.
 */
const SYSTEM_CONFIGURATION_KEY = /(_URL|_TOKEN)$|^(MAIL|SMTP)_/;
const PREFERENCES_VIEW = 'Admin.Preferences.view';

/**
 * Settings as {key: value}: public ones only (no session), or every non-secret one, the system
 * ones (external systems, mail) only with `systemToo` (a holder of Admin.Preferences.view).
 */
async function readSettings(
  db: Executor,
  onlyPublic: boolean,
  systemToo = true,
): Promise<Record<string, string | null>> {
  const rows = await db
    .select({ key: configurations.key, value: configurations.value, is_public: configurations.is_public })
    .from(configurations);
  const out: Record<string, string | null> = {};
  for (const r of rows) {
    if (SECRET_CONFIGURATION_KEY.test(r.key)) continue;
    if (onlyPublic && !r.is_public) continue;
    if (!systemToo && !r.is_public && SYSTEM_CONFIGURATION_KEY.test(r.key)) continue;
    out[r.key] = r.value;
  }
  return out;
}

const tags = ['Configuraciones'];

const userConfigurations = defineAction({
  ...calls.settings,
  summary: 'Ajustes para el cliente',
  tags,
  // Without a session: the public settings only.
  access: 'public',
  async handler({ user, db }) {
    return readSettings(db, !user, !!user?.permissions.has(PREFERENCES_VIEW));
  },
});

/** A secret's value never reaches the audit log. */
const mask = (key: string, value: unknown) => (SECRET_CONFIGURATION_KEY.test(key) ? '***' : value);

const saveConfigurations = defineAction({
  ...calls.saveSettings,
  summary: 'Guarda {clave: valor} y devuelve los ajustes',
  tags,
  access: { permission: 'Admin.Preferences.update' },
  audit: { resource: 'configurations', action: 'save' },
  async handler({ body, db, write }) {
    const unknown = Object.keys(body).filter((key) => !CONFIGURATION_KEYS.has(key));
    if (unknown.length) {
      throw new ValidationError(unknown.map((key) => ({ field: key, message: unknownKeyMessage(key) })));
    }
    const entries = Object.entries(body).map(([key, v]) => [key, v === null ? null : String(v)] as const);
    for (const [key, value] of entries) await assertOutboundUrl(key, value);
    await write(
      async (tx) => {
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
        return before;
      },
      (before) => ({
        recordId: null,
        before: Object.fromEntries(before.map((r) => [r.key, mask(r.key, r.value)])),
        after: Object.fromEntries(entries.map(([k, v]) => [k, mask(k, v)])),
      }),
    );
    return readSettings(db, false);
  },
});

const generalTypesValues = defineAction({
  ...calls.generalTypeValues,
  summary: 'Valores activos por tipo',
  tags: ['Tipos generales'],
  access: 'login',
  async handler({ db }) {
    const rows = await db
      .select({
        type: generalTypes.code,
        id: typeValues.id,
        code: typeValues.code,
        name: typeValues.name,
        payload: typeValues.payload,
      })
      .from(typeValues)
      .innerJoin(generalTypes, eq(typeValues.general_type_id, generalTypes.id))
      .where(and(eq(typeValues.active, true), eq(generalTypes.active, true)))
      .orderBy(generalTypes.code, typeValues.order, typeValues.name);
    const out: Record<string, { id: number; code: string; name: string; payload: unknown }[]> = {};
    for (const { type, ...v } of rows) {
      out[type] = out[type] ?? [];
      out[type].push(v);
    }
    return out;
  },
});

export const preferencesActions = [userConfigurations, saveConfigurations, generalTypesValues];
