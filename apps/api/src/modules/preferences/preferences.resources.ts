// Preferences: general types and their values, key/value configurations. The calls that read
// or save them as a whole are actions in preferences.actions.ts.

import { configurationContract, SECRET_CONFIGURATION_KEY, typeValueContract } from '@app/contracts';
import { eq, sql } from 'drizzle-orm';
import { ConflictError, ValidationError } from '../../core/errors';
import { defineResource, fromContract } from '../../core/resource';
import { configurations, generalTypes, typeValues } from '../../db/schema';
import { CONFIGURATION_KEYS } from './declared-settings';
import { assertOutboundUrl } from './external-urls';

const SECRET_SQL = SECRET_CONFIGURATION_KEY.source;

export const typeValueResource = defineResource({
  // The values of one general type by its code (general-types-values, the client's selects).
  ...fromContract(typeValueContract, { filters: ['general_type_code'] }),
  table: typeValues,
  joins: [{ table: generalTypes, on: eq(typeValues.general_type_id, generalTypes.id) }],
  display: { general_type_name: generalTypes.name, general_type_code: generalTypes.code },
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
  hooks: {
    beforeSave: async (data, ctx) => {
      // Only the declared settings can be written, and a row keeps its key.
      if (ctx.action === 'update' && data.key !== undefined && data.key !== ctx.before?.key) {
        throw ValidationError.field('key', 'La clave de una configuración no se puede cambiar');
      }
      const key = String(data.key ?? ctx.before?.key ?? '');
      assertDeclaredKey(key, 'key');
      // A secret answered as null and saved back unchanged keeps its stored value.
      if (ctx.action === 'update' && SECRET_CONFIGURATION_KEY.test(key) && (data.value ?? null) === null) {
        delete data.value;
      }
      await assertOutboundUrl(key, data.value, 'value');
      return data;
    },
    // A declared setting stays (its value can be emptied); a leftover row of an unknown key goes.
    beforeDelete: (ctx) => {
      const key = String(ctx.before.key);
      if (CONFIGURATION_KEYS.has(key)) {
        throw new ConflictError(
          `No se puede eliminar la configuración ${key}: es un ajuste del sistema. Para no usarla, deje su valor vacío.`,
        );
      }
    },
  },
});

export const unknownKeyMessage = (key: string) =>
  `La clave ${key} no es una configuración del sistema. Use una de las claves existentes.`;

/** 422 naming the key when it is not one of the declared settings (declared-settings.ts). */
function assertDeclaredKey(key: string, field: string): void {
  if (!CONFIGURATION_KEYS.has(key)) throw ValidationError.field(field, unknownKeyMessage(key));
}
