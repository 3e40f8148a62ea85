// The base seed: what a fresh database holds, and that running it again changes nothing and
// never undoes an administrator's edit. Runs on a copy of the seeded template (PGlite, or
// PostgreSQL with TEST_DATABASE_URL).
import {
  ADMIN_ROLE,
  allPermissions,
  DEALER_ROLE,
  DEALER_ROLE_PERMISSIONS,
  MENU_TREE,
  type MenuNode,
} from '@app/contracts';
import { verify } from '@node-rs/argon2';
import { type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_USERNAME, createTestApp, type TestContext } from '../../test/harness';
import { limaYear } from '../core/lima';
import { SEED_FINGERPRINT_KEY } from './data';
import { ensureJwtSecret, seedDatabase } from './index';

let ctx: TestContext;
const q = async <T = any>(query: SQL): Promise<T[]> =>
  ((await ctx.handle.db.execute(query)) as unknown as { rows: T[] }).rows;
const count = async (table: string) =>
  Number((await q<{ n: number }>(sql`SELECT count(*)::int AS n FROM ${sql.identifier(table)}`))[0].n);

const SEEDED_TABLES = [
  'permissions',
  'roles',
  'role_permissions',
  'tabs',
  'users',
  'user_roles',
  'manufacturers',
  'general_types',
  'type_values',
  'countries',
  'departments',
  'provinces',
  'districts',
  'configurations',
];

/** Row counts and the latest change of every seeded table. */
async function snapshot() {
  const out: Record<string, unknown> = {};
  for (const t of SEEDED_TABLES) out[t] = await count(t);
  out.configurations_changed = (
    await q(sql`SELECT max(updated_at)::text AS at FROM configurations WHERE key <> ${SEED_FINGERPRINT_KEY}`)
  )[0].at;
  out.users_changed = (await q(sql`SELECT max(updated_at)::text AS at FROM users`))[0].at;
  return out;
}

const rolePermissions = async (role: string) =>
  (
    await q<{ name: string }>(
      sql`SELECT p.name FROM role_permissions rp JOIN roles r ON r.id = rp.role_id
       JOIN permissions p ON p.id = rp.permission_id WHERE r.name = ${role} ORDER BY p.name`,
    )
  ).map((r) => r.name);

const forgetFingerprint = () => q(sql`DELETE FROM configurations WHERE key = ${SEED_FINGERPRINT_KEY}`);

beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(async () => {
  await ctx?.close();
});

describe('base seed', () => {
  it("holds Peru's 25 departments, 196 provinces and 1,892 districts, each under its parent", async () => {
    expect(await count('departments')).toBe(25);
    expect(await count('provinces')).toBe(196);
    expect(await count('districts')).toBe(1892);
    const [miraflores] = await q(
      sql`SELECT d.name AS district, p.name AS province, dp.name AS department FROM districts d
       JOIN provinces p ON p.id = d.province_id JOIN departments dp ON dp.id = p.department_id
       WHERE d.code = '150122'`,
    );
    expect(miraflores).toEqual({ district: 'MIRAFLORES', province: 'LIMA', department: 'LIMA' });
  });

  it('gives Administrador every permission and Concesionario exactly its set', async () => {
    expect(await count('permissions')).toBe(allPermissions().length);
    expect(await rolePermissions(ADMIN_ROLE)).toEqual([...allPermissions()].sort());
    expect(await rolePermissions(DEALER_ROLE)).toEqual([...DEALER_ROLE_PERMISSIONS].sort());
  });

  it('writes the whole menu tree with parents, order, icon, path and permission base', async () => {
    const nodes: { node: MenuNode; parent: string | null; order: number }[] = [];
    const walk = (list: MenuNode[], parent: string | null) =>
      list.forEach((node, i) => {
        nodes.push({ node, parent, order: i + 1 });
        if (node.children) walk(node.children, node.name);
      });
    walk(MENU_TREE, null);
    const rows = await q(
      sql`SELECT t.name, p.name AS parent, t."order", t.icon, t.path, t.permission FROM tabs t
       LEFT JOIN tabs p ON p.id = t.parent_id`,
    );
    expect(rows).toHaveLength(nodes.length);
    const byName = new Map(rows.map((r) => [r.name, r]));
    for (const { node, parent, order } of nodes) {
      expect(byName.get(node.name)).toEqual({
        name: node.name,
        parent,
        order,
        icon: node.icon,
        path: node.path ?? null,
        permission: node.permission ?? null,
      });
    }
  });

  it('creates the admin with role Administrador, the brands V N S A and the fixed lists', async () => {
    const [admin] = await q(
      sql`SELECT u.full_name, u.email, r.name AS role FROM users u JOIN user_roles ur ON ur.user_id = u.id
       JOIN roles r ON r.id = ur.role_id WHERE u.username = ${ADMIN_USERNAME}`,
    );
    expect(admin).toEqual({ full_name: 'Administrador', email: 'admin@example.com', role: ADMIN_ROLE });
    expect((await q(sql`SELECT code FROM manufacturers ORDER BY code`)).map((r) => r.code)).toEqual([
      'A',
      'N',
      'S',
      'V',
    ]);
    const values = async (type: string) =>
      (
        await q(
          sql`SELECT v.code, v.name FROM type_values v JOIN general_types g ON g.id = v.general_type_id
           WHERE g.code = ${type} ORDER BY v."order"`,
        )
      ).map((r) => `${r.code} ${r.name}`);
    expect(await values('PAYMENT_METHODS')).toEqual(['E Efectivo', 'T Tarjeta', 'D Depósito', 'G Gratuito']);
    expect(await values('WEEK_DAYS')).toHaveLength(7);
    expect(await values('ITEMS_PER_PAGE')).toEqual(['5 5', '10 10', '20 20', '50 50']);
    expect(await values('DOCUMENT_TYPES')).toEqual([
      'DNI DNI',
      'RUC RUC',
      'CE Carnet de extranjería',
      'PAS Pasaporte',
    ]);
    expect((await values('YEARS'))[0]).toBe('2016 2016');
    expect(await values('YEARS')).toHaveLength(limaYear() - 2016 + 1);
    const [peru] = await q(sql`SELECT name FROM countries WHERE code = 'PE'`);
    expect(peru.name).toBe('Perú');
  });

  it('marks the client settings public and keeps the secrets private', async () => {
    const rows = await q<{ key: string; value: string; is_public: boolean }>(
      sql`SELECT key, value, is_public FROM configurations`,
    );
    const byKey = new Map(rows.map((r) => [r.key, r]));
    expect(byKey.get('DEFAULT_CURRENCY_SIGN')).toMatchObject({ value: 'S/', is_public: true });
    expect(byKey.get('COMPANY_NAME')?.is_public).toBe(true);
    expect(byKey.get('SURVEY_EXPIRY_DAYS')).toMatchObject({ value: '60', is_public: false });
    expect(byKey.get('SALES_API_TOKEN')).toMatchObject({ value: '', is_public: false });
  });
});

describe('running the seed again', () => {
  it('changes nothing, whether it skips (same seed) or runs every statement', async () => {
    const before = await snapshot();
    const again = await seedDatabase(ctx.handle, { adminUsername: ADMIN_USERNAME });
    expect(again).toEqual({ adminCreated: false, generatedAdminPassword: undefined });
    expect(await snapshot()).toEqual(before);
    await forgetFingerprint();
    await seedDatabase(ctx.handle, { adminUsername: ADMIN_USERNAME });
    expect(await snapshot()).toEqual(before);
  });

  it("never re-grants a revoked permission nor overwrites an administrator's setting", async () => {
    await q(
      sql`DELETE FROM role_permissions WHERE role_id = (SELECT id FROM roles WHERE name = ${ADMIN_ROLE})
       AND permission_id = (SELECT id FROM permissions WHERE name = 'Admin.Zones.destroy')`,
    );
    await q(sql`UPDATE configurations SET value = 'Autos del Sur S.A.C.' WHERE key = 'COMPANY_NAME'`);
    await forgetFingerprint();
    await seedDatabase(ctx.handle, { adminUsername: ADMIN_USERNAME });
    expect(await rolePermissions(ADMIN_ROLE)).not.toContain('Admin.Zones.destroy');
    const [company] = await q(sql`SELECT value FROM configurations WHERE key = 'COMPANY_NAME'`);
    expect(company.value).toBe('Autos del Sur S.A.C.');
  });

  it('spells with accents what an earlier version seeded without them, and keeps what an administrator renamed', async () => {
    await q(sql`UPDATE tabs SET title = 'Paises' WHERE name = 'country'`);
    await q(sql`UPDATE tabs SET title = 'Naciones' WHERE name = 'department'`);
    await q(sql`UPDATE countries SET name = 'Peru' WHERE code = 'PE'`);
    await q(sql`UPDATE type_values SET name = 'Miercoles' WHERE name = 'Miércoles'`);
    await q(sql`UPDATE concepts SET name = 'Venta de vehiculos nuevos' WHERE code = 'VN_UND'`);
    await q(
      sql`UPDATE quizzes SET title = 'Encuesta de satisfaccion de venta' WHERE title = 'Encuesta de satisfacción de venta'`,
    );
    await q(sql`UPDATE quiz_questions SET text = '¿Como califica la atencion de su asesor de ventas?'
      WHERE text = '¿Cómo califica la atención de su asesor de ventas?'`);
    const quizzesBefore = await count('quizzes');
    await forgetFingerprint();
    await seedDatabase(ctx.handle, { adminUsername: ADMIN_USERNAME });
    const title = async (name: string) =>
      (await q(sql`SELECT title FROM tabs WHERE name = ${name}`))[0].title;
    expect(await title('country')).toBe('Países');
    expect(await title('department')).toBe('Naciones');
    expect((await q(sql`SELECT name FROM countries WHERE code = 'PE'`))[0].name).toBe('Perú');
    expect(await q(sql`SELECT name FROM type_values WHERE name LIKE 'Mi_rcoles'`)).toEqual([
      { name: 'Miércoles' },
    ]);
    expect((await q(sql`SELECT name FROM concepts WHERE code = 'VN_UND'`))[0].name).toBe(
      'Venta de vehículos nuevos',
    );
    expect(await count('quizzes')).toBe(quizzesBefore);
    expect(
      await q(sql`SELECT title FROM quizzes WHERE title LIKE 'Encuesta de satisfac_i_n de venta'`),
    ).toEqual([{ title: 'Encuesta de satisfacción de venta' }]);
    expect(await q(sql`SELECT text FROM quiz_questions WHERE text LIKE '%asesor de ventas%'`)).toEqual([
      { text: '¿Cómo califica la atención de su asesor de ventas?' },
    ]);
  });

  it('grants a permission that is new to the database to the roles that should hold it', async () => {
    await q(sql`DELETE FROM permissions WHERE name IN ('Sales.export', 'Admin.Zones.export')`);
    await forgetFingerprint();
    await seedDatabase(ctx.handle, { adminUsername: ADMIN_USERNAME });
    expect(await rolePermissions(ADMIN_ROLE)).toEqual(
      expect.arrayContaining(['Sales.export', 'Admin.Zones.export']),
    );
    expect(await rolePermissions(DEALER_ROLE)).toContain('Sales.export');
    expect(await rolePermissions(DEALER_ROLE)).not.toContain('Admin.Zones.export');
  });

  it('creates no second admin when the first one exists under another name', async () => {
    const result = await seedDatabase(ctx.handle, { adminUsername: 'otro' });
    expect(result).toEqual({ adminCreated: false, generatedAdminPassword: undefined });
    expect(await q(sql`SELECT id FROM users WHERE username = 'otro'`)).toHaveLength(0);
  });

  it('generates a password only for an admin it creates, and returns it once', async () => {
    // As on a first start: nobody holds the Administrador role yet.
    const noAdmins = () =>
      q(sql`DELETE FROM user_roles WHERE role_id = (SELECT id FROM roles WHERE name = ${ADMIN_ROLE})`);
    await noAdmins();
    const first = await seedDatabase(ctx.handle, { adminUsername: 'jefe' });
    expect(first.adminCreated).toBe(true);
    expect(first.generatedAdminPassword?.length).toBeGreaterThanOrEqual(12);
    const [user] = await q(
      sql`SELECT u.password_hash, u.email, r.name AS role FROM users u JOIN user_roles ur ON ur.user_id = u.id
       JOIN roles r ON r.id = ur.role_id WHERE u.username = 'jefe'`,
    );
    expect(user.email).toBe('jefe@example.com');
    expect(user.role).toBe(ADMIN_ROLE);
    expect(await verify(user.password_hash, first.generatedAdminPassword!)).toBe(true);
    const second = await seedDatabase(ctx.handle, { adminUsername: 'jefe' });
    expect(second).toEqual({ adminCreated: false, generatedAdminPassword: undefined });

    await noAdmins();
    const given = await seedDatabase(ctx.handle, {
      adminUsername: 'gerente',
      adminPassword: 'Clave-Segura-1',
    });
    expect(given).toEqual({ adminCreated: true, generatedAdminPassword: undefined });
    const [gerente] = await q(sql`SELECT password_hash FROM users WHERE username = 'gerente'`);
    expect(await verify(gerente.password_hash, 'Clave-Segura-1')).toBe(true);
  });

  it('keeps one generated token secret across starts; JWT_SECRET wins when given', async () => {
    const a = await ensureJwtSecret(ctx.handle);
    const b = await ensureJwtSecret(ctx.handle);
    expect(a).toBe(b);
    expect(a.length).toBeGreaterThanOrEqual(32);
    expect(await ensureJwtSecret(ctx.handle, 'from-env')).toBe('from-env');
    // Kept where no call reads or writes it, never among the settings administrators edit.
    const [row] = await q(sql`SELECT value FROM server_secrets WHERE key = 'jwt_secret'`);
    expect(row.value).toBe(a);
    expect(await q(sql`SELECT id FROM configurations WHERE key ~* 'jwt'`)).toEqual([]);
  });
});
