// Idempotent base seed: run on every start, it only adds what is missing (ON CONFLICT DO
// NOTHING on natural keys, in one transaction) and never overwrites what an administrator
// changed later. Bulk rows travel as one jsonb parameter per statement (fast on PGlite).
import { createHash, randomBytes } from 'node:crypto';
import {
  ADMIN_ROLE,
  allPermissions,
  DEALER_ROLE,
  DEALER_ROLE_PERMISSIONS,
  MENU_TREE,
  type MenuNode,
  PERMISSION_ACTION_LABELS,
  type PermissionAction,
  permissionTitles,
} from '@app/contracts';
import { type SQL, sql } from 'drizzle-orm';
import { hashPassword } from '../core/passwords';
import { withoutAccents } from '../core/text';
import type { DatabaseHandle } from '../db/client';
import { seedConcepts } from '../modules/figures/figures.seed';
import { CONFIGURATIONS } from '../modules/preferences/declared-settings';
import { seedQuizzes } from '../modules/quiz/quiz.seed';
import { normaliseEmail } from '../modules/security/login-names';
import { COUNTRIES, generalTypes, JWT_SECRET_KEY, MANUFACTURERS, SEED_FINGERPRINT_KEY } from './data';
import { readUbigeo } from './ubigeo';

export interface SeedOptions {
  adminUsername: string;
  adminPassword?: string;
  /**
   * The first value of the TWO_FACTOR_REQUIRED setting in a new database (default on); a
   * database that has the setting keeps it. Test suites and benches start with it off.
   */
  twoFactorRequired?: boolean;
}

export interface SeedResult {
  /** Set only when the admin user was created now with a generated password: print it once. */
  generatedAdminPassword?: string;
  /** True when the admin user was created by this run. */
  adminCreated: boolean;
}

type Executor = { execute(query: SQL): Promise<unknown> };

/** Rows of a raw statement, on node-postgres and on PGlite alike (both answer `{rows}`). */
async function rows<T>(db: Executor, query: SQL): Promise<T[]> {
  const res = (await db.execute(query)) as { rows?: T[] };
  return res.rows ?? [];
}

const json = (value: unknown) => sql`${JSON.stringify(value)}::jsonb`;

/** Readable names for permissions: "Concesionarios - Ver". */
function permissionDisplayNames(tree: MenuNode[] = MENU_TREE): Map<string, string> {
  const titles = permissionTitles(tree);
  const out = new Map<string, string>();
  for (const name of allPermissions(tree)) {
    const dot = name.lastIndexOf('.');
    const base = name.slice(0, dot);
    const action = name.slice(dot + 1) as PermissionAction;
    out.set(name, `${titles.get(base) ?? base} - ${PERMISSION_ACTION_LABELS[action] ?? action}`);
  }
  return out;
}

/** The menu tree, level by level, so each child can find its parent's id by name. */
function tabLevels(tree: MenuNode[] = MENU_TREE) {
  const levels: {
    name: string;
    title: string;
    path: string | null;
    icon: string;
    ord: number;
    permission: string | null;
    parent: string | null;
  }[][] = [];
  const walk = (nodes: MenuNode[], depth: number, parent: string | null) => {
    nodes.forEach((n, i) => {
      levels[depth] ??= [];
      levels[depth].push({
        name: n.name,
        title: n.title,
        path: n.path ?? null,
        icon: n.icon,
        ord: i + 1,
        permission: n.permission ?? null,
        parent,
      });
      if (n.children) walk(n.children, depth + 1, n.name);
    });
  };
  walk(tree, 0, null);
  return levels;
}

export function generatePassword(): string {
  // 12 random bytes → 16 base64url characters (letters, digits, - and _).
  return randomBytes(12).toString('base64url');
}

/**
 * Earlier versions seeded the menu, the fixed lists, the countries and the settings' descriptions
 * without accents. A row whose text is still exactly that old text gets the accented one; a text
 * an administrator changed is left alone.
 */
async function restoreAccents(
  tx: Executor,
  levels: ReturnType<typeof tabLevels>,
  types: ReturnType<typeof generalTypes>,
  permissionRows: { name: string; display_name: string }[],
): Promise<void> {
  /**
   * Gives `table`'s `column` the seed's spelling where it still holds the same text without its
   * accents (a name an administrator changed is left as it is).
   */
  const respell = async (
    table: string,
    key: string,
    column: string,
    list: { key: string; value: string }[],
  ) => {
    const stale = list
      .map((r) => ({ ...r, plain: withoutAccents(r.value) }))
      .filter((r) => r.plain !== r.value);
    if (!stale.length) return;
    await tx.execute(sql`UPDATE ${sql.identifier(table)} t SET ${sql.identifier(column)} = v.value
      FROM jsonb_to_recordset(${json(stale)}) AS v(key text, value text, plain text)
      WHERE t.${sql.identifier(key)} = v.key AND t.${sql.identifier(column)} = v.plain`);
  };
  await respell(
    'permissions',
    'name',
    'display_name',
    permissionRows.map((p) => ({ key: p.name, value: p.display_name })),
  );
  await respell(
    'tabs',
    'name',
    'title',
    levels.flat().map((t) => ({ key: t.name, value: t.title })),
  );
  await respell(
    'general_types',
    'code',
    'name',
    types.map((t) => ({ key: t.code, value: t.name })),
  );
  await respell(
    'countries',
    'code',
    'name',
    COUNTRIES.map((c) => ({ key: c.code, value: c.name })),
  );
  await respell(
    'configurations',
    'key',
    'description',
    CONFIGURATIONS.map((c) => ({ key: c.key, value: c.description })),
  );
  // A type's values are keyed by their type and code.
  const values = types
    .flatMap((t) => t.values.map((v) => ({ type: t.code, code: v.code, name: v.name })))
    .map((r) => ({ ...r, plain: withoutAccents(r.name) }))
    .filter((r) => r.plain !== r.name);
  if (values.length)
    await tx.execute(sql`UPDATE type_values tv SET name = v.name
      FROM jsonb_to_recordset(${json(values)}) AS v(type text, code text, name text, plain text),
        general_types g
      WHERE g.code = v.type AND tv.general_type_id = g.id AND tv.code = v.code AND tv.name = v.plain`);
}

/** The settings with their first values (the second factor's requirement as the options say). */
function seededConfigurations(opts: SeedOptions) {
  return CONFIGURATIONS.map((c) =>
    c.key === 'TWO_FACTOR_REQUIRED' && opts.twoFactorRequired === false ? { ...c, value: 'false' } : c,
  );
}

export async function seedDatabase(handle: DatabaseHandle, opts: SeedOptions): Promise<SeedResult> {
  const { db } = handle;
  const adminUsername = opts.adminUsername.trim();

  // The admin is created on the first start only: when no user has that name and no user holds
  // the Administrador role (so renaming the admin later does not bring a second one back).
  // The password hash is the only slow step (~25 ms): pay it only when the admin will be created.
  const existing = await rows<{ id: number }>(
    db,
    sql`SELECT id FROM users WHERE lower(username) = lower(${adminUsername})
        UNION ALL
        SELECT ur.user_id FROM user_roles ur JOIN roles r ON r.id = ur.role_id WHERE r.name = ${ADMIN_ROLE}
        LIMIT 1`,
  );
  let generatedPassword: string | undefined;
  let passwordHash: string | undefined;
  if (existing.length === 0) {
    generatedPassword = opts.adminPassword ? undefined : generatePassword();
    passwordHash = await hashPassword(opts.adminPassword ?? generatedPassword!);
  }

  const ubigeo = readUbigeo();
  const displayNames = permissionDisplayNames();
  const permissionRows = allPermissions().map((name) => ({
    name,
    display_name: displayNames.get(name) ?? name,
  }));
  const levels = tabLevels();
  const types = generalTypes();

  // Everything the base seed writes, hashed. When the database already holds this exact seed
  // and its admin, there is nothing to add: the statements are skipped (keeps a restart fast).
  const fingerprint = createHash('sha256')
    .update(
      JSON.stringify([
        permissionRows,
        levels,
        DEALER_ROLE_PERMISSIONS,
        MANUFACTURERS,
        types,
        COUNTRIES,
        ubigeo,
        CONFIGURATIONS,
      ]),
    )
    .digest('hex');
  let upToDate = false;
  if (existing.length > 0) {
    const stored = await rows<{ value: string | null }>(
      db,
      sql`SELECT value FROM configurations WHERE key = ${SEED_FINGERPRINT_KEY}`,
    );
    upToDate = stored[0]?.value === fingerprint;
  }

  let adminCreated = false;
  if (!upToDate) {
    await db.transaction(async (tx) => {
      // Permissions; the ones new to this database are granted below.
      const newPermissions = await rows<{ name: string }>(
        tx,
        sql`INSERT INTO permissions (name, display_name)
          SELECT v.name, v.display_name FROM jsonb_to_recordset(${json(permissionRows)}) AS v(name text, display_name text)
          ON CONFLICT (name) DO NOTHING RETURNING name`,
      );
      const newPermissionNames = new Set(newPermissions.map((p) => p.name));

      // Roles. A role created now gets its whole set; an existing role only gets permissions that
      // did not exist before (so a permission an administrator revoked stays revoked).
      const newRoles = await rows<{ name: string }>(
        tx,
        sql`INSERT INTO roles (name, description, is_static)
          VALUES (${ADMIN_ROLE}, 'Acceso total', true),
                 (${DEALER_ROLE}, 'Usuario de concesionario: solo los registros de su concesionario', true)
          ON CONFLICT (name) DO NOTHING RETURNING name`,
      );
      const newRoleNames = new Set(newRoles.map((r) => r.name));
      const grants: [string, string[]][] = [
        [ADMIN_ROLE, allPermissions()],
        [DEALER_ROLE, DEALER_ROLE_PERMISSIONS],
      ];
      for (const [role, set] of grants) {
        const names = newRoleNames.has(role) ? set : set.filter((n) => newPermissionNames.has(n));
        if (names.length === 0) continue;
        await tx.execute(
          sql`INSERT INTO role_permissions (role_id, permission_id)
            SELECT r.id, p.id FROM roles r, permissions p
            WHERE r.name = ${role} AND p.name IN (SELECT jsonb_array_elements_text(${json(names)}))
            ON CONFLICT DO NOTHING`,
        );
      }

      // Menu tree (tabs), parents first.
      for (const level of levels) {
        await tx.execute(
          sql`INSERT INTO tabs (name, title, path, icon, "order", permission, parent_id)
            SELECT v.name, v.title, v.path, v.icon, v.ord, v.permission, p.id
            FROM jsonb_to_recordset(${json(level)})
              AS v(name text, title text, path text, icon text, ord int, permission text, parent text)
            LEFT JOIN tabs p ON p.name = v.parent
            ON CONFLICT (name) DO NOTHING`,
        );
      }

      // Admin user.
      if (passwordHash) {
        const email = adminUsername.includes('@') ? adminUsername : `${adminUsername}@example.com`;
        const created = await rows<{ id: number }>(
          tx,
          sql`INSERT INTO users (username, email, full_name, password_hash, default_tab, confirmed)
            VALUES (${adminUsername}, ${normaliseEmail(email)}, 'Administrador', ${passwordHash}, 'home', true)
            ON CONFLICT DO NOTHING RETURNING id`,
        );
        if (created.length > 0) {
          adminCreated = true;
          await tx.execute(
            sql`INSERT INTO user_roles (user_id, role_id)
              SELECT ${created[0].id}, id FROM roles WHERE name = ${ADMIN_ROLE}
              ON CONFLICT DO NOTHING`,
          );
        }
      }

      // Brands.
      await tx.execute(
        sql`INSERT INTO manufacturers (code, name, color)
          SELECT v.code, v.name, v.color FROM jsonb_to_recordset(${json(MANUFACTURERS)}) AS v(code text, name text, color text)
          ON CONFLICT (code) DO NOTHING`,
      );

      // Fixed lists as general types and values.
      await tx.execute(
        sql`INSERT INTO general_types (code, name)
          SELECT v.code, v.name FROM jsonb_to_recordset(${json(types.map(({ code, name }) => ({ code, name })))})
            AS v(code text, name text)
          ON CONFLICT (code) DO NOTHING`,
      );
      const values = types.flatMap((t) =>
        t.values.map((v, i) => ({
          type: t.code,
          code: v.code,
          name: v.name,
          ord: i + 1,
          payload: v.payload ?? null,
        })),
      );
      await tx.execute(
        sql`INSERT INTO type_values (general_type_id, code, name, "order", payload)
          SELECT g.id, v.code, v.name, v.ord, v.payload
          FROM jsonb_to_recordset(${json(values)}) AS v(type text, code text, name text, ord int, payload jsonb)
          JOIN general_types g ON g.code = v.type
          ON CONFLICT (general_type_id, code) DO NOTHING`,
      );

      // Countries and Peru's ubigeo.
      await tx.execute(
        sql`INSERT INTO countries (code, name)
          SELECT v.code, v.name FROM jsonb_to_recordset(${json(COUNTRIES)}) AS v(code text, name text)
          ON CONFLICT (code) DO NOTHING`,
      );
      await tx.execute(
        sql`INSERT INTO departments (code, name)
          SELECT v.code, v.name FROM jsonb_to_recordset(${json(ubigeo.departments)}) AS v(code text, name text)
          ON CONFLICT (code) DO NOTHING`,
      );
      await tx.execute(
        sql`INSERT INTO provinces (code, department_id, name)
          SELECT v.code, d.id, v.name
          FROM jsonb_to_recordset(${json(ubigeo.provinces)}) AS v(code text, department_code text, name text)
          JOIN departments d ON d.code = v.department_code
          ON CONFLICT (code) DO NOTHING`,
      );
      await tx.execute(
        sql`INSERT INTO districts (code, province_id, name, latitude, longitude)
          SELECT v.code, p.id, v.name, v.latitude, v.longitude
          FROM jsonb_to_recordset(${json(ubigeo.districts)})
            AS v(code text, province_code text, name text, latitude float8, longitude float8)
          JOIN provinces p ON p.code = v.province_code
          ON CONFLICT (code) DO NOTHING`,
      );

      // Names this seed once wrote without accents get them, where nobody changed them since
      // (the stored name is still the seed's name without accents).
      await restoreAccents(tx, levels, types, permissionRows);

      // Settings.
      await tx.execute(
        sql`INSERT INTO configurations (key, value, is_public, description)
          SELECT v.key, v.value, v.is_public, v.description
          FROM jsonb_to_recordset(${json(seededConfigurations(opts))}) AS v(key text, value text, is_public boolean, description text)
          ON CONFLICT (key) DO NOTHING`,
      );
      await tx.execute(
        sql`INSERT INTO configurations (key, value, is_public, description)
          VALUES (${SEED_FINGERPRINT_KEY}, ${fingerprint}, false, 'Huella de los datos iniciales aplicados')
          ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = now()`,
      );
    });
  }
  await seedQuizzes(handle.db);
  await seedConcepts(handle.db);

  return { generatedAdminPassword: adminCreated ? generatedPassword : undefined, adminCreated };
}

/**
 * The token-signing secret: JWT_SECRET when given, else the `jwt_secret` row of
 * `server_secrets` (a table no call reads or writes), generated on first need. Safe when several
 * instances start together (the first insert wins).
 */
export async function ensureJwtSecret(handle: DatabaseHandle, fromEnv?: string): Promise<string> {
  if (fromEnv) return fromEnv;
  const generated = randomBytes(48).toString('base64url');
  await handle.db.execute(
    sql`INSERT INTO server_secrets (key, value) VALUES (${JWT_SECRET_KEY}, ${generated})
        ON CONFLICT (key) DO NOTHING`,
  );
  const found = await rows<{ value: string }>(
    handle.db,
    sql`SELECT value FROM server_secrets WHERE key = ${JWT_SECRET_KEY}`,
  );
  const value = found[0]?.value;
  if (!value) throw new Error('No se pudo leer el secreto de firma de los tokens (server_secrets)');
  return value;
}
