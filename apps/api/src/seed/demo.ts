// The demo network (`npm run seed:demo`, `DEMO=1 npm start`): three zones, sixteen dealers across
// eight departments with their branches, employees and contacts, brand models, a few sales per
// dealer, a manufacturer administrator and one Concesionario user per dealer. Idempotent: every
// row has a natural key (code, username, VIN) and a dealer's children are only written in the run
// that creates the dealer, so a second run changes nothing and never resets a changed password.
import { ADMIN_ROLE, DEALER_ROLE } from '@app/contracts';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { limaYear } from '../core/lima';
import { hashPassword } from '../core/passwords';
import { type FileStorage, folderStorageFor } from '../core/storage';
import type { DatabaseHandle } from '../db/client';
import {
  companies,
  dealerBranches,
  dealerContacts,
  dealers,
  districts,
  employees,
  manufacturerModels,
  manufacturers,
  provinces,
  roles,
  userRoles,
  users,
  zones,
} from '../db/schema';
import { seedAgreementsDemo } from '../modules/agreements/agreements.demo';
import { seedDispatchDemo } from '../modules/dispatches/dispatches.demo';
import { seedDocumentsDemo } from '../modules/documents/documents.demo';
import { seedFiguresDemo } from '../modules/figures/figures.demo';
import {
  agreementNotices,
  documentNotices,
  figuresNotices,
} from '../modules/notifications/notifications.service';
import { seedSurveyDemo } from '../modules/quiz/quiz.demo';
import { sales } from '../modules/sales/sales.tables';
import { seedSchedulesDemo } from '../modules/schedules/schedules.demo';
import { seedWorkshopDemo } from '../modules/workshop/workshop.demo';
import {
  COMPANIES,
  CONTACTS,
  DEALERS,
  FIRST,
  LAST,
  MODELS,
  PAYMENTS,
  POSITIONS,
  saleDate,
  salesOf,
  serviceQuality,
  ZONES,
} from './demo-network';

/** Password of every demo user unless DEMO_PASSWORD says otherwise. */
export const DEFAULT_DEMO_PASSWORD = 'Demo-2026';

export interface DemoLogin {
  role: string;
  username: string;
  password: string;
  dealer: string | null;
}

export interface DemoResult {
  created: Record<
    | 'zones'
    | 'companies'
    | 'dealers'
    | 'branches'
    | 'employees'
    | 'contacts'
    | 'models'
    | 'sales'
    | 'users'
    | 'invitations'
    | 'responses'
    | 'alerts'
    | 'agreements'
    | 'workshopInfos',
    number
  >;
  logins: DemoLogin[];
}

const pick = <T>(list: readonly T[], i: number): T => list[i % list.length];
const pad = (n: number, width: number) => String(n).padStart(width, '0');
const slug = (s: string) =>
  s
    .normalize('NFD')
    // The accents away (Rodríguez: rodriguez, not rodri.guez), then anything else a dot.
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9]+/g, '.')
    .replace(/^\.|\.$/g, '')
    .toLowerCase();

/** The ids of the rows whose `column` is one of `keys`, by that value (rows kept from earlier runs too). */
async function idsBy(
  tx: any,
  table: any,
  column: any,
  keys: readonly string[],
): Promise<Map<string, number>> {
  const rows: { id: number; key: string }[] = await tx
    .select({ id: table.id, key: column })
    .from(table)
    .where(inArray(column, [...keys]));
  return new Map(rows.map((r) => [r.key, r.id]));
}

/** Adds the demo network; returns what this run created and the demo logins. */
export function seedDemo(
  handle: DatabaseHandle,
  opts: { password?: string; storage?: FileStorage } = {},
): Promise<DemoResult> {
  // Under the start-up lock, as the base seed: instances started together with DEMO=1 on one
  // PostgreSQL load it one after the other, and the later ones find it there.
  return handle.exclusive(() => loadDemo(handle, opts));
}

async function loadDemo(
  handle: DatabaseHandle,
  opts: { password?: string; storage?: FileStorage },
): Promise<DemoResult> {
  const password = opts.password?.trim() || DEFAULT_DEMO_PASSWORD;
  if (password.length < 8) throw new Error('DEMO_PASSWORD debe tener al menos 8 caracteres');
  const db = handle.db as any;
  const created = noneCreated();
  const usernames = ['gerente.red', ...DEALERS.map((d) => d.code.toLowerCase())];
  const hashes = await newUserHashes(db, usernames, password);
  await db.transaction(async (tx: any) => {
    await seedNetwork(tx, created);
    await seedUsers(tx, hashes, created);
  });
  await seedModuleDemos(handle, opts.storage, created);
  return { created, logins: await demoLogins(db, usernames, password) };
}

function noneCreated(): DemoResult['created'] {
  return {
    zones: 0,
    companies: 0,
    dealers: 0,
    branches: 0,
    employees: 0,
    contacts: 0,
    models: 0,
    sales: 0,
    users: 0,
    invitations: 0,
    responses: 0,
    alerts: 0,
    agreements: 0,
    workshopInfos: 0,
  };
}

/** The password hashes of the demo users not there yet, by username. */
async function newUserHashes(db: any, usernames: string[], password: string): Promise<Map<string, string>> {
  const existingUsers = new Set(
    (await db.select({ u: users.username }).from(users).where(inArray(users.username, usernames))).map(
      (r: { u: string }) => r.u,
    ),
  );
  // Hashing is the slow step (~25 ms each): only for the users this run creates.
  const hashes = new Map<string, string>();
  for (const u of usernames) if (!existingUsers.has(u)) hashes.set(u, await hashPassword(password));
  return hashes;
}

type Place = { code: string; district_id: number; province_id: number; department_id: number };
type Brand = { id: number; code: string };
type Model = { id: number; name: string; manufacturer_id: number };
type Dealer = (typeof DEALERS)[number];
/** What every dealer of the network is written with: its zone, company, place and brand models. */
interface Network {
  zoneIds: Map<string, number | undefined>;
  companyIds: Map<string, number>;
  placeOf: Map<string, Place>;
  peruId: number | null;
  brands: Brand[];
  models: Model[];
}

/** Zones, companies, brand models, then each dealer new in this run with its children. */
async function seedNetwork(tx: any, created: DemoResult['created']): Promise<void> {
  const { zoneIds, companyIds } = await seedZonesAndCompanies(tx, created);
  const { brands, models } = await seedModels(tx, created);
  const { placeOf, peruId } = await dealerPlaces(tx);
  const network: Network = { zoneIds, companyIds, placeOf, peruId, brands, models };
  for (const [index, d] of DEALERS.entries()) await seedDealer(tx, network, d, index, created);
}

async function seedZonesAndCompanies(tx: any, created: DemoResult['created']) {
  const zoneRows = await tx.insert(zones).values(ZONES).onConflictDoNothing().returning({ id: zones.id });
  created.zones = zoneRows.length;
  // Zones are found by name (the name is unique), then keyed by their demo code.
  const zoneIdsByName = await idsBy(
    tx,
    zones,
    zones.name,
    ZONES.map((z) => z.name),
  );
  const zoneIds = new Map(ZONES.map((z) => [z.code, zoneIdsByName.get(z.name)]));

  const companyRows = await tx
    .insert(companies)
    .values(COMPANIES)
    .onConflictDoNothing()
    .returning({ id: companies.id });
  created.companies = companyRows.length;
  const companyIds = await idsBy(
    tx,
    companies,
    companies.name,
    COMPANIES.map((c) => c.name),
  );
  return { zoneIds, companyIds };
}

/** Brand models. */
async function seedModels(
  tx: any,
  created: DemoResult['created'],
): Promise<{ brands: Brand[]; models: Model[] }> {
  const brands: Brand[] = await tx
    .select({ id: manufacturers.id, code: manufacturers.code })
    .from(manufacturers);
  const modelValues = brands.flatMap((b) =>
    (MODELS[b.code] ?? []).map((name, i) => ({
      manufacturer_id: b.id,
      name,
      code: `${b.code}-${pad(i + 1, 2)}`,
    })),
  );
  if (modelValues.length) {
    const rows = await tx
      .insert(manufacturerModels)
      .values(modelValues)
      .onConflictDoNothing()
      .returning({ id: manufacturerModels.id });
    created.models = rows.length;
  }
  const models: Model[] = await tx
    .select({
      id: manufacturerModels.id,
      name: manufacturerModels.name,
      manufacturer_id: manufacturerModels.manufacturer_id,
    })
    .from(manufacturerModels)
    .where(
      inArray(
        manufacturerModels.code,
        modelValues.map((m) => m.code),
      ),
    );
  return { brands, models };
}

/** Where each dealer is: district → province → department; and Peru's id. */
async function dealerPlaces(tx: any): Promise<{ placeOf: Map<string, Place>; peruId: number | null }> {
  const places: Place[] = await tx
    .select({
      code: districts.code,
      district_id: districts.id,
      province_id: provinces.id,
      department_id: provinces.department_id,
    })
    .from(districts)
    .innerJoin(provinces, eq(districts.province_id, provinces.id))
    .where(
      inArray(
        districts.code,
        DEALERS.map((d) => d.district),
      ),
    );
  const [peru] = await tx
    .execute(sql`select id from countries where code in ('PE', 'PER') limit 1`)
    .then((r: { rows?: { id: number }[] }) => r.rows ?? []);
  return { placeOf: new Map(places.map((p) => [p.code, p])), peruId: peru?.id ?? null };
}

/** A place as a record's location columns and as its address columns (none when unknown). */
function placeColumns(place: Place | undefined) {
  const location = place
    ? {
        department_id: place.department_id,
        province_id: place.province_id,
        district_id: place.district_id,
      }
    : {};
  const address = place
    ? {
        address_department_id: place.department_id,
        address_province_id: place.province_id,
        address_district_id: place.district_id,
      }
    : {};
  return { location, address };
}

/** One dealer, and when this run creates it, its branches, employees, contacts and sales. */
async function seedDealer(
  tx: any,
  network: Network,
  d: Dealer,
  index: number,
  created: DemoResult['created'],
): Promise<void> {
  const { location, address } = placeColumns(network.placeOf.get(d.district));
  const [dealer] = await tx
    .insert(dealers)
    .values({
      code: d.code,
      name: d.name,
      ruc: `20${pad(100000000 + index * 7919, 9)}`,
      company_id: network.companyIds.get(COMPANIES[d.company].name),
      zone_id: network.zoneIds.get(d.zone),
      email: `ventas.${d.code.toLowerCase()}@concesionarios.example.com`,
      ...location,
      address_country_id: network.peruId,
      ...address,
      address_address1: d.address,
      address_phone: d.phone,
      address_phone_mobile: `9${pad(81000000 + index * 1301, 8)}`,
    })
    .onConflictDoNothing()
    .returning({ id: dealers.id });
  if (!dealer) return; // Already there: its children were written with it.
  created.dealers++;

  const branchRows = await tx
    .insert(dealerBranches)
    .values([
      {
        dealer_id: dealer.id,
        code: `${d.code}-S1`,
        name: `${d.name} - Sede principal`,
        ...location,
        address_country_id: network.peruId,
        ...address,
        address_address1: d.address,
        address_phone: d.phone,
      },
      {
        dealer_id: dealer.id,
        code: `${d.code}-T1`,
        name: `${d.name} - Taller`,
        ...location,
        address_country_id: network.peruId,
        ...address,
        address_address1: `${d.address.replace(/\d+$/, '')}${100 + index * 13}`,
        address_phone: d.phone,
      },
    ])
    .returning({ id: dealerBranches.id });
  created.branches += branchRows.length;
  const branchIds: number[] = branchRows.map((b: { id: number }) => b.id);

  const people = await seedEmployees(tx, dealer.id, branchIds, d, index, created);
  await seedContacts(tx, dealer.id, d, index, created);
  if (network.models.length) await seedSales(tx, network, dealer.id, branchIds[0], people, index, created);
}

/** A dealer's staff, one a position; the workshop's head at the workshop branch. */
async function seedEmployees(
  tx: any,
  dealerId: number,
  branchIds: number[],
  d: Dealer,
  index: number,
  created: DemoResult['created'],
) {
  const people = POSITIONS.map((position, i) => {
    const first = pick(FIRST, index * 3 + i);
    const last = pick(LAST, index * 5 + i * 3);
    return {
      dealer_id: dealerId,
      dealer_branch_id: branchIds[position === 'Jefe de taller' ? 1 : 0],
      first_name: first,
      last_name: `${last} ${pick(LAST, index + i * 7)}`,
      document_number: pad(40000000 + index * 9173 + i * 311, 8),
      position,
      email: `${slug(first)}.${slug(last)}.${d.code.toLowerCase()}@concesionarios.example.com`,
      phone: `9${pad(87000000 + index * 2113 + i * 97, 8)}`,
      license_category: i % 2 === 0 ? 'A-I' : 'A-IIa',
    };
  });
  const employeeRows = await tx.insert(employees).values(people).returning({ id: employees.id });
  created.employees += employeeRows.length;
  return people;
}

/** A dealer's contacts; all but the second receive the alerts. */
async function seedContacts(
  tx: any,
  dealerId: number,
  d: Dealer,
  index: number,
  created: DemoResult['created'],
): Promise<void> {
  const contactRows = await tx
    .insert(dealerContacts)
    .values(
      CONTACTS.map((position, i) => {
        const name = `${pick(FIRST, index * 2 + i + 5)} ${pick(LAST, index * 3 + i + 4)}`;
        return {
          dealer_id: dealerId,
          name,
          position,
          email: `${slug(name)}.${d.code.toLowerCase()}@concesionarios.example.com`,
          phone: `9${pad(95000000 + index * 311 + i * 17, 8)}`,
          receives_alerts: i !== 1,
        };
      }),
    )
    .returning({ id: dealerContacts.id });
  created.contacts += contactRows.length;
}

/** A dealer's sales over the demo months, sold by its two salespeople. */
async function seedSales(
  tx: any,
  { brands, models }: Network,
  dealerId: number,
  branchId: number,
  people: { first_name: string; last_name: string }[],
  index: number,
  created: DemoResult['created'],
): Promise<void> {
  const count = salesOf(index);
  const saleRows = Array.from({ length: count }, (_, i) => {
    const model = models[(index * 5 + i * 3) % models.length];
    const brand = brands.find((b) => b.id === model.manufacturer_id)!;
    const buyerFirst = pick(FIRST, index + i * 5 + 2);
    const buyerLast = `${pick(LAST, index * 7 + i)} ${pick(LAST, index + i * 11 + 3)}`;
    return {
      dealer_id: dealerId,
      dealer_branch_id: branchId,
      sale_date: saleDate(i, count, index),
      invoice: `F${pad(index + 1, 3)}-${pad(1000 + i, 8)}`,
      buyer_name: `${buyerFirst} ${buyerLast}`,
      document_type: 'DNI',
      document_number: pad(70000000 + index * 1009 + i * 37, 8),
      email: `${slug(buyerFirst)}.${slug(buyerLast)}@correo.example.com`,
      phone: `9${pad(96000000 + index * 733 + i * 29, 8)}`,
      // 9DMX + brand + dealer + sequence: 17 characters, no I, O or Q.
      vin: `9DMX${brand.code}${pad(index + 1, 3)}${pad(i + 1, 9)}`,
      manufacturer_id: brand.id,
      manufacturer_model_id: model.id,
      model_name: model.name,
      year: limaYear() - (i % 3 === 0 ? 1 : 0),
      seller: `${people[2 + (i % 2)].first_name} ${people[2 + (i % 2)].last_name}`,
      payment_method: pick(PAYMENTS, index + i),
    };
  });
  const rows = await tx.insert(sales).values(saleRows).onConflictDoNothing().returning({ id: sales.id });
  created.sales += rows.length;
}

/** Users: the manufacturer administrator and one Concesionario user per dealer (only those hashed: new ones). */
async function seedUsers(
  tx: any,
  hashes: Map<string, string>,
  created: DemoResult['created'],
): Promise<void> {
  const roleIds = await idsBy(tx, roles, roles.name, [ADMIN_ROLE, DEALER_ROLE]);
  const dealerIds = await idsBy(
    tx,
    dealers,
    dealers.code,
    DEALERS.map((d) => d.code),
  );
  const wanted = [
    {
      username: 'gerente.red',
      full_name: 'Gerente de Red (demo)',
      email: 'gerente.red@demo.example.com',
      dealer_id: null as number | null,
      role: ADMIN_ROLE,
    },
    ...DEALERS.map((d) => ({
      username: d.code.toLowerCase(),
      full_name: `Usuario ${d.name}`,
      email: `${d.code.toLowerCase()}@demo.example.com`,
      dealer_id: dealerIds.get(d.code) ?? null,
      role: DEALER_ROLE,
    })),
  ];
  for (const u of wanted) {
    const passwordHash = hashes.get(u.username);
    if (!passwordHash) continue;
    if (u.role === DEALER_ROLE && !u.dealer_id) continue;
    const [row] = await tx
      .insert(users)
      .values({
        username: u.username,
        email: u.email,
        full_name: u.full_name,
        password_hash: passwordHash,
        dealer_id: u.dealer_id,
        confirmed: true,
      })
      .onConflictDoNothing()
      .returning({ id: users.id });
    if (!row) continue;
    created.users++;
    const roleId = roleIds.get(u.role);
    if (roleId) await tx.insert(userRoles).values({ user_id: row.id, role_id: roleId }).onConflictDoNothing();
  }
}

/** Each module's demo data over the network, in the order they build on each other. */
async function seedModuleDemos(
  handle: DatabaseHandle,
  storage: FileStorage | undefined,
  created: DemoResult['created'],
): Promise<void> {
  await seedFiguresDemo(handle, DEALERS);

  // The surveys of the demo sales (VIN 9DMX…), answered as buyers would.
  const indexOf = new Map(DEALERS.map((d, i) => [d.code, i]));
  const surveys = await seedSurveyDemo(handle.db, {
    vinPrefix: '9DMX',
    quality: (code) => serviceQuality(indexOf.get(code) ?? 0),
  });
  Object.assign(created, surveys);
  Object.assign(created, await seedDispatchDemo(handle));
  // After the capacities (figures demo): workshop hours are drawn from them.
  Object.assign(created, await seedWorkshopDemo(handle, DEALERS));
  Object.assign(created, await seedAgreementsDemo(handle, DEALERS));
  // The extranet's library, its files in the server's storage (DATA_DIR/files).
  Object.assign(
    created,
    await seedDocumentsDemo(
      handle,
      storage ?? folderStorageFor(''),
      DEALERS.map((d) => d.code),
    ),
  );
  await seedDemoNotices(handle);
  // The scheduled mails on, and one dealer's confirmed month mailed (to the outbox without SMTP).
  await seedSchedulesDemo(handle.db);
  await seedSharedView(handle);
}

/**
 * The notifications centre: what the demo makes real (agreements due or overdue, months enabled
 * and not confirmed, documents just published; the survey alerts were told as they opened).
 * Idempotent (each notification's key), whether or not today's sweep has run.
 */
async function seedDemoNotices(handle: DatabaseHandle): Promise<void> {
  await handle.db.transaction(async (tx) => {
    await agreementNotices(tx);
    await documentNotices(tx);
    await figuresNotices(tx);
  });
}

/**
 * A saved view the network's manager shared with every dealer user (issue 29): Seguimiento's
 * pending agreements, the nearest due first, without the zone column.
 */
async function seedSharedView(handle: DatabaseHandle): Promise<void> {
  await handle.db.execute(sql`
    insert into saved_views (user_id, screen, name, params, role_id)
    select u.id, '/agreement', 'Pendientes por fecha límite',
      'sort=due_date&order=asc&filter%5Bstatus%5D=pending&hide=zone_name', r.id
    from users u, roles r where u.username = 'gerente.red' and r.name = ${DEALER_ROLE}
    on conflict do nothing`);
}

/** The demo users there now (made by this run or an earlier one), with their dealer's name. */
async function demoLogins(db: any, usernames: string[], password: string): Promise<DemoLogin[]> {
  const present = await db
    .select({ username: users.username, dealer_name: dealers.name })
    .from(users)
    .leftJoin(dealers, eq(users.dealer_id, dealers.id))
    .where(and(inArray(users.username, usernames)));
  const dealerOf = new Map(
    present.map((p: { username: string; dealer_name: string | null }) => [p.username, p.dealer_name]),
  );
  return usernames
    .filter((u) => dealerOf.has(u))
    .map((u) => ({
      role: u === 'gerente.red' ? ADMIN_ROLE : DEALER_ROLE,
      username: u,
      password,
      dealer: (dealerOf.get(u) as string | null) ?? null,
    }));
}

/** The lines `--seed-demo` and `DEMO=1` print. */
export function describeDemo(result: DemoResult): string[] {
  const c = result.created;
  const extra = c as Record<string, number>;
  const total = Object.values(c).reduce((a, b) => a + b, 0);
  const lines = [
    total === 0
      ? 'Datos de demostración: ya estaban cargados, no se cambió nada.'
      : `Datos de demostración cargados: ${c.zones} zonas, ${c.companies} empresas, ${c.dealers} concesionarios, ` +
        `${c.branches} sedes, ${c.employees} empleados, ${c.contacts} contactos, ${c.models} modelos, ` +
        `${c.sales} ventas, ${c.users} usuarios, ${c.invitations} invitaciones a encuestas, ` +
        `${c.responses} respuestas, ${c.alerts} alertas, ${c.agreements} acuerdos de seguimiento, ` +
        `${c.workshopInfos} registros de info taller` +
        (extra.documents
          ? `, ${extra.documents} documentos de la extranet (${extra.documentFiles} archivos).`
          : '.'),
    'Usuarios de demostración (la contraseña es la inicial; si alguien la cambió, vale la nueva):',
  ];
  const width = Math.max(...result.logins.map((l) => l.username.length), 7);
  for (const l of result.logins) {
    lines.push(
      `  ${l.username.padEnd(width)}  ${l.password}  ${l.role}${l.dealer ? ` - ${l.dealer}` : ' (fabricante)'}`,
    );
  }
  return lines;
}
