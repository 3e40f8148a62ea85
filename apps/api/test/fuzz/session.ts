// A fuzzing session on one test app: the callers (administrator, dealer user, no token, a token
// signed with another secret, garbage), one request sent and checked, and the healing of the
// callers after an accepted write (a random body may switch the administrator off, take a
// permission from a role or point a connector at a random address; the next request must not
// inherit that).
import { createHmac } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import { invalidateAllUsers } from '../../src/core/auth';
import { configurations, rolePermissions, roles, userRoles, users } from '../../src/db/schema';
import { createDealerUser, login, type TestContext } from '../harness';
import { answerProblems, changedTables, type Fingerprint, fingerprint, nextXid } from './check';
import type { FuzzRequest, Who } from './requests';
import type { FuzzRoute } from './routes';

interface Captured {
  users: (typeof users.$inferSelect)[];
  roles: (typeof roles.$inferSelect)[];
  rolePermissions: (typeof rolePermissions.$inferSelect)[];
  userRoles: (typeof userRoles.$inferSelect)[];
  configurations: (typeof configurations.$inferSelect)[];
}

export interface RouteFigures {
  calls: number;
  byStatus: Record<number, number>;
}

export class FuzzSession {
  readonly problems: string[] = [];
  readonly figures = new Map<string, RouteFigures>();
  /** The dealer user's own dealer. */
  dealerId!: number;
  /** The answer to the last request sent. */
  last?: { status: number; contentType: string; body: string };
  private tokens!: Record<Who, string | undefined>;
  private captured!: Captured;
  /** The state after the last request, and the next transaction id then. */
  private state!: { tables: Fingerprint; xid: string };

  constructor(private readonly t: TestContext) {}

  async start(): Promise<void> {
    const admin = await login(this.t.app);
    const dealer = await createDealerUser(this.t.app, admin);
    this.dealerId = dealer.dealerId;
    const forged = forgedToken({ sub: '1', tv: 0 });
    this.tokens = { admin, dealer: dealer.token, none: undefined, forged, garbage: 'abc.def.ghi' };
    const db = this.t.handle.db;
    const adminRow = await db.select().from(users).where(eq(users.username, 'admin'));
    const actorIds = [adminRow[0].id, dealer.userId];
    this.captured = {
      users: await db.select().from(users).where(inArray(users.id, actorIds)),
      roles: await db.select().from(roles),
      rolePermissions: await db.select().from(rolePermissions),
      userRoles: await db.select().from(userRoles).where(inArray(userRoles.user_id, actorIds)),
      configurations: await db.select().from(configurations),
    };
    await this.remember();
  }

  private async remember(): Promise<Fingerprint> {
    const xid = await nextXid(this.t.handle);
    this.state = { tables: await fingerprint(this.t.handle), xid };
    return this.state.tables;
  }

  /** The tables a request changed: none when no transaction id was handed out meanwhile. */
  private async changedSinceLast(): Promise<string[]> {
    if ((await nextXid(this.t.handle)) === this.state.xid) return [];
    const before = this.state.tables;
    return changedTables(before, await this.remember());
  }

  /** Puts the callers and the settings back as they were. */
  async heal(): Promise<void> {
    const c = this.captured;
    await this.t.handle.db.transaction(async (tx) => {
      for (const { id, ...row } of c.roles)
        await tx
          .insert(roles)
          .values({ id, ...row })
          .onConflictDoUpdate({ target: roles.id, set: row });
      for (const { id, ...row } of c.users)
        await tx
          .insert(users)
          .values({ id, ...row })
          .onConflictDoUpdate({ target: users.id, set: row });
      await tx.insert(rolePermissions).values(c.rolePermissions).onConflictDoNothing();
      await tx.insert(userRoles).values(c.userRoles).onConflictDoNothing();
      for (const { id, ...row } of c.configurations)
        await tx
          .insert(configurations)
          .values({ id, ...row })
          .onConflictDoUpdate({ target: configurations.id, set: row });
    });
    invalidateAllUsers();
    await this.remember();
  }

  /** Sends one request; records what is wrong with its answer. Answers false on a problem. */
  async send(route: FuzzRoute, req: FuzzRequest): Promise<boolean> {
    const headers: Record<string, string> = { ...req.headers };
    // The logout would end the session every other request uses: it gets a session of its own.
    const token = route.endsSession && req.who === 'admin' ? await login(this.t.app) : this.tokens[req.who];
    if (token) headers.authorization = `Bearer ${token}`;
    if (req.body.contentType) headers['content-type'] = req.body.contentType;
    const writes = req.method !== 'GET';
    let res: Awaited<ReturnType<TestContext['app']['inject']>>;
    try {
      res = await this.t.app.inject({ method: req.method, url: req.url, headers, payload: req.body.payload });
    } catch (err) {
      return this.problem(route, req, `inject fallo: ${(err as Error).message}`);
    }
    this.last = {
      status: res.statusCode,
      contentType: String(res.headers['content-type'] ?? ''),
      body: res.body,
    };
    const key = `${route.method} ${route.path}`;
    const fig = this.figures.get(key) ?? { calls: 0, byStatus: {} };
    fig.calls++;
    fig.byStatus[res.statusCode] = (fig.byStatus[res.statusCode] ?? 0) + 1;
    this.figures.set(key, fig);
    const problems = answerProblems(
      { status: res.statusCode, contentType: String(res.headers['content-type'] ?? ''), body: res.body },
      req.echo,
    );
    if (writes && res.statusCode >= 400) {
      const changed = await this.changedSinceLast();
      if (changed.length)
        problems.push(`rechazada con ${res.statusCode} pero escribio: ${changed.join('; ')}`);
    }
    if (writes && res.statusCode < 400) await this.heal();
    // A read may write by design (a read mark): the next refused write is compared from here.
    else if (!writes && (await nextXid(this.t.handle)) !== this.state.xid) await this.remember();
    if (problems.length) return this.problem(route, req, problems.join(' | '));
    return true;
  }

  private problem(route: FuzzRoute, req: FuzzRequest, what: string): false {
    const body =
      typeof req.body.payload === 'string'
        ? req.body.payload.slice(0, 120)
        : `${req.body.payload?.length ?? 0} bytes`;
    this.problems.push(
      `${route.method} ${route.path}: ${what}\n    ${req.method} ${req.url.slice(0, 200)} (${req.who}, ${req.body.contentType ?? 'sin cuerpo'}) ${body}`,
    );
    return false;
  }
}

/** A well-formed HS256 token for user 1 signed with a secret that is not the server's. */
function forgedToken(payload: Record<string, unknown>): string {
  const now = Math.floor(Date.now() / 1000);
  const part = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const head = `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ ...payload, iat: now, exp: now + 3600 })}`;
  return `${head}.${createHmac('sha256', 'otra-clave-que-no-es-la-del-servidor').update(head).digest('base64url')}`;
}
