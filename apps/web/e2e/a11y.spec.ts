// Accessibility sweep (issue 27): axe finds 0 critical and 0 serious violations on every screen of
// the menu, as the administrator and as a dealer user, at 1440×900 and at 390×844, on the demo
// network (grids with rows), plus the views of tabbed screens, the phone drawer open, the login
// page and the public survey. The menu is each user's from the server (`/tabs/menu`, built from
// MENU_TREE), so a new screen is swept without a line here. Cheap by design, as it runs in every
// browser suite: one server with DEMO=1 for the file, one page per user (one login; both sizes in
// it, the screens reached as a user does, without reloading the app), axe injected once per page
// load and run in the page (not @axe-core/playwright's analyze(), which injects axe and opens a
// blank page on every run: ten times slower), the WCAG 2.x A/AA and best-practice tags, and the
// screen waited on by conditions (no request in flight, nothing loading), never a fixed time.
// Each user's test prints the critical and serious nodes per screen; a failure lists, per screen,
// the rule, its impact, the node count and a few targets.
// A11Y_SHOTS=1 saves a screenshot of every screen under test-results/a11y/.
import { type ChildProcess, spawn } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MENU_TREE } from '@app/contracts';
import type { Browser, Page } from '@playwright/test';
import { expect, test } from './fixtures';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const PORT = (Number(process.env.E2E_PORT) || 3310) + 17;
const BASE = `http://127.0.0.1:${PORT}`;
const ADMIN = { username: 'admin', password: 'Admin12345' };
/** A dealer user of the demo network (apps/api/src/seed/demo.ts). */
const DEALER = { username: 'lim01', password: 'Demo-2026' };
const SIZES = {
  escritorio: { width: 1440, height: 900 },
  teléfono: { width: 390, height: 844 },
} as const;
const SHOTS = process.env.A11Y_SHOTS === '1';
/** axe-core as @axe-core/playwright (the suite's dependency) resolves it. */
const AXE_SOURCE = readFileSync(
  createRequire(createRequire(import.meta.url).resolve('@axe-core/playwright')).resolve(
    'axe-core/axe.min.js',
  ),
  'utf8',
);
/**
 * The rules of WCAG 2.0, 2.1 and 2.2 at levels A and AA, plus axe's best practices (some are
 * serious: a dialog's name, tabindex > 0...); not AAA, experimental or other standards' tags.
 */
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa', 'best-practice'];

interface MenuNode {
  name: string;
  title: string;
  path: string | null;
  children: MenuNode[];
}

interface Found {
  where: string;
  rule: string;
  impact: string;
  nodes: number;
  targets: string[];
  help: string;
}

const found: Found[] = [];
let server: ChildProcess | undefined;
let dataDir = '';

/** Screens of a menu (a group's own path opens its first child, so only leaves). */
function leaves(nodes: MenuNode[]): string[] {
  return leafNodes(nodes).map((n) => n.path as string);
}

function leafNodes(nodes: MenuNode[], out: MenuNode[] = []): MenuNode[] {
  for (const n of nodes) {
    if (n.children?.length) leafNodes(n.children, out);
    else if (n.path) out.push(n);
  }
  return out;
}

/** The screens outside the menu, with the titles their pages carry (apps/web/src/app/screens.ts). */
const EXTRA_SCREENS = [
  { path: '/admin/users/profile', title: 'Perfil de usuario' },
  { path: '/main/order', title: 'Notificaciones' },
];

async function startDemoServer(): Promise<void> {
  dataDir = mkdtempSync(path.join(tmpdir(), 'e2e-a11y-'));
  const limaToday = new Date(Date.now() - 5 * 3_600_000).toISOString().slice(0, 10);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DEMO: '1',
    DATA_DIR: dataDir,
    PORT: String(PORT),
    ADMIN_PASSWORD: ADMIN.password,
    // As the suite's server (playwright.config.ts): the administrator signs in with the password.
    TWO_FACTOR_REQUIRED: 'false',
    FAKE_NOW: `${limaToday}T23:00:00-05:00`,
  };
  delete env.DATABASE_URL;
  server = spawn(process.execPath, ['apps/api/dist/main.js'], { cwd: root, env, stdio: 'ignore' });
  const until = Date.now() + 300_000;
  while (Date.now() < until) {
    if (server.exitCode !== null) throw new Error(`el servidor de demostración terminó (${server.exitCode})`);
    const ok = await fetch(`${BASE}/api/getUserConfigurations`).then(
      (r) => r.status < 500,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('el servidor de demostración no respondió en 300 s');
}

async function apiCall<T>(token: string, method: string, url: string, body?: unknown): Promise<T> {
  const r = await fetch(`${BASE}/api${url}`, {
    method,
    headers: {
      Authorization: `Bearer ${token}`,
      'X-Requested-With': 'XMLHttpRequest',
      ...(body ? { 'Content-Type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = await r.json();
  if (!r.ok) throw new Error(`${method} ${url}: ${r.status} ${JSON.stringify(json.error)}`);
  return json.result as T;
}

async function tokenOf(user: { username: string; password: string }): Promise<string> {
  const r = await fetch(`${BASE}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ ...user, rememberMe: false }),
  });
  return (await r.json()).result.access_token;
}

/** Requests of each page still in flight (its documents, scripts and API calls). */
const inFlight = new WeakMap<Page, Set<unknown>>();

function trackRequests(page: Page): void {
  const open = new Set<unknown>();
  inFlight.set(page, open);
  page.on('request', (r) => open.add(r));
  page.on('requestfinished', (r) => open.delete(r));
  page.on('requestfailed', (r) => open.delete(r));
}

/** The screen has settled: nothing loading, no request in flight (conditions, not a time). */
async function settled(page: Page): Promise<void> {
  // Budgets for a loaded machine (a list of 1,800 districts on 2 busy cores), not estimates.
  const open = inFlight.get(page);
  if (open) await expect.poll(() => open.size, { timeout: 60_000 }).toBe(0);
  await expect(page.getByLabel('Cargando')).toHaveCount(0, { timeout: 60_000 });
  await expect(page.locator('.MuiDataGrid-overlay .MuiCircularProgress-root')).toHaveCount(0, {
    timeout: 60_000,
  });
  // What the last answers started (a list after its count) has been asked for too.
  if (open) await expect.poll(() => open.size, { timeout: 60_000 }).toBe(0);
}

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; data?: { fgColor?: string; bgColor?: string; contrastRatio?: number } }[];
}

/** Per screen: critical and serious nodes found (the figures each test prints). */
const counts: { where: string; critical: number; serious: number }[] = [];

/** When the screen being swept was asked for (its time, settling included, goes in sweep.jsonl). */
let shownAt = Date.now();

/** One axe run over the page as it is; serious and critical violations are kept. */
async function sweep(page: Page, where: string): Promise<void> {
  const t0 = Date.now();
  // axe once per page load: it stays in the page across the app's own navigations.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const violations: AxeViolation[] = await page.evaluate(async (tags) => {
    type Raw = {
      id: string;
      impact: string | null;
      help: string;
      nodes: { target: string[]; any: { data?: unknown }[] }[];
    };
    const { axe } = window as unknown as {
      axe: { run: (context: Document, options: object) => Promise<{ violations: Raw[] }> };
    };
    const r = await axe.run(document, {
      runOnly: { type: 'tag', values: tags },
      resultTypes: ['violations'],
    });
    return r.violations
      .filter((v) => v.impact === 'critical' || v.impact === 'serious')
      .map((v) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        nodes: v.nodes.map((n) => ({
          target: n.target,
          data: n.any[0]?.data as AxeViolation['nodes'][0]['data'],
        })),
      }));
  }, AXE_TAGS);
  const line = { where, critical: 0, serious: 0 };
  for (const v of violations) {
    if (v.impact === 'critical') line.critical += v.nodes.length;
    else line.serious += v.nodes.length;
    found.push({
      where,
      rule: v.id,
      impact: v.impact ?? '',
      nodes: v.nodes.length,
      // A contrast says its colours and ratio, e.g. "#ffffff sobre #ed6c02: 3.11".
      targets: v.nodes.slice(0, 3).map((n) => {
        const d = n.data;
        const colours = d?.fgColor ? ` (${d.fgColor} sobre ${d.bgColor}: ${d.contrastRatio})` : '';
        return `${n.target.join(' ')}${colours}`;
      }),
      help: v.help,
    });
  }
  counts.push(line);
  mkdirSync('test-results/a11y', { recursive: true });
  // The figures of the run, one line per axe run (what each rule found, how long it took).
  appendFileSync(
    'test-results/a11y/sweep.jsonl',
    `${JSON.stringify({ where, ms: Date.now() - t0, screenMs: Date.now() - shownAt, found: found.filter((f) => f.where === where) })}\n`,
  );
  if (SHOTS) {
    await page.screenshot({ path: `test-results/a11y/${where.replace(/[^\w]+/g, '_')}.png` });
  }
}

/** The app goes to a path as its own links do (history and popstate): no reload, axe stays. */
async function open(page: Page, to: string): Promise<void> {
  await page.evaluate((p) => {
    window.history.pushState(null, '', p);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, to);
  await expect(page).toHaveURL((u) => u.pathname === to);
}

/** "escritorio /sales: 0 críticas, 2 graves" for each screen swept since `from`. */
function printCounts(from: number): void {
  const lines = counts.slice(from).map((c) => `  ${c.where}: ${c.critical} críticas, ${c.serious} graves`);
  console.log(`axe (nodos críticos y graves por pantalla):\n${lines.join('\n')}`);
}

/** One user, one page, one login: every screen of the user's menu at each size. */
async function sweepUser(browser: Browser, user: { username: string; password: string }, who: string) {
  const token = await tokenOf(user);
  const menu = await apiCall<MenuNode[]>(token, 'GET', '/tabs/menu');
  const screens = [
    ...leafNodes(menu).map((n) => ({ path: n.path as string, title: n.title })),
    ...EXTRA_SCREENS,
  ];
  const context = await browser.newContext({ baseURL: BASE, viewport: SIZES.escritorio });
  const page = await context.newPage();
  trackRequests(page);
  try {
    await page.goto('/');
    await page.locator('input[name=username]').fill(user.username);
    await page.locator('input[name=password]').fill(user.password);
    await page.getByRole('button', { name: 'Iniciar Sesión' }).click();
    await expect(page).toHaveURL(/\/main\//, { timeout: 60_000 });
    await expect(page.getByRole('button', { name: 'Menú de usuario' })).toBeVisible();
    for (const size of Object.keys(SIZES) as (keyof typeof SIZES)[]) {
      await page.setViewportSize(SIZES[size]);
      const tag = (p: string) => `${who} ${size} ${p}`;
      for (const [i, { path: screen, title }] of screens.entries()) {
        shownAt = Date.now();
        await open(page, screen);
        await expect(page.getByRole('button', { name: 'Menú de usuario' })).toBeVisible({ timeout: 60_000 });
        // The new screen is on the page: a navigation is a transition, so the previous screen
        // stays shown until the new one's code has arrived; its Guard then sets the page title.
        const escaped = title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        await expect(page).toHaveTitle(new RegExp(`(^| - )${escaped}$`), { timeout: 60_000 });
        await settled(page);
        await sweep(page, tag(screen));
        // The views of a tabbed screen, one by one.
        const views = page.locator('main [role=tablist]:not([aria-label="Páginas abiertas"])').first();
        if ((await views.count()) && (await views.isVisible())) {
          const n = await views.getByRole('tab').count();
          for (let v = 1; v < n; v++) {
            const name = (await views.getByRole('tab').nth(v).textContent()) ?? String(v);
            const tab = views.getByRole('tab', { name, exact: true });
            // A click that lands on a tab being re-drawn (the screen still settling on a loaded
            // machine) is tried again, with a bound: never the test's whole budget on one click.
            await expect(async () => {
              shownAt = Date.now();
              await tab.click({ timeout: 5_000 });
              await expect(tab).toHaveAttribute('aria-selected', 'true', { timeout: 5_000 });
            }).toPass({ timeout: 60_000 });
            await settled(page);
            await sweep(page, tag(`${screen} (${name})`));
          }
        }
        // On a phone, the menu drawer open (once: it is the same on every screen).
        if (size === 'teléfono' && i === 0) {
          await page.getByRole('button', { name: 'Mostrar u ocultar menú' }).click();
          await expect(page.getByTestId('menu-drawer')).toHaveAttribute('data-open', 'true');
          await expect(page.getByRole('navigation', { name: 'Menú principal' })).toBeVisible();
          await sweep(page, tag(`${screen} (menú abierto)`));
          await page.keyboard.press('Escape');
          await expect(page.getByTestId('menu-drawer')).not.toHaveAttribute('data-open', 'true');
        }
      }
    }
  } finally {
    await context.close();
  }
}

test.describe('accesibilidad (axe: 0 críticas, 0 graves)', () => {
  // Always on (issue 27, item 8): every browser suite sweeps every screen; nothing is skipped.
  test.beforeAll(async () => {
    // Loading the demo network takes ~30 s of CPU: minutes on a loaded machine.
    test.setTimeout(330_000);
    await startDemoServer();
  });

  test.afterAll(async () => {
    server?.kill('SIGTERM');
    await new Promise((r) => (server?.exitCode !== null ? r(null) : server.once('exit', r)));
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('the administrator’s menu covers every screen of MENU_TREE', async () => {
    const menu = await apiCall<MenuNode[]>(await tokenOf(ADMIN), 'GET', '/tabs/menu');
    expect(leaves(menu).sort()).toEqual(leaves(MENU_TREE as unknown as MenuNode[]).sort());
  });

  for (const [who, user] of [
    ['administrador', ADMIN],
    ['concesionario', DEALER],
  ] as const) {
    test(`${who}: every screen at 1440×900 and at 390×844`, async ({ browser }) => {
      // A budget, not an estimate: ~45 axe runs per size on a shared 2-core machine at load 20.
      test.setTimeout(900_000);
      const before = found.length;
      const from = counts.length;
      try {
        await sweepUser(browser, user, who);
      } finally {
        printCounts(from);
      }
      // Each line names the screen and size, the rule id, its impact, nodes and targets.
      expect(report(found.slice(before)), `${who}: axe, críticas y graves por pantalla`).toEqual([]);
    });
  }

  test('a monthly grid by keyboard: one tab stop, cells named by row and column, Esc then Tab leaves', async ({
    browser,
  }) => {
    const context = await browser.newContext({ baseURL: BASE, viewport: SIZES.escritorio });
    const page = await context.newPage();
    await page.goto('/');
    await page.locator('input[name=username]').fill(DEALER.username);
    await page.locator('input[name=password]').fill(DEALER.password);
    await page.getByRole('button', { name: 'Iniciar Sesión' }).click();
    await expect(page).toHaveURL(/\/main\//, { timeout: 60_000 });
    await page.goto('/main/capacity');
    const grid = page.getByRole('grid', { name: 'Capacidades' });
    // A full load of the app (a budget for a loaded 2-core machine, where it took over 10 s).
    await expect(grid).toBeVisible({ timeout: 60_000 });
    // Headers a screen reader announces with each cell.
    await expect(grid.getByRole('columnheader', { name: 'Bahías' })).toBeVisible();
    await expect(grid.getByRole('rowheader', { name: /Sede principal/ })).toBeVisible();
    const branch = (await grid.getByRole('rowheader', { name: /Sede principal/ }).textContent())?.trim();
    await expect(grid.getByRole('textbox', { name: `${branch}, Bahías` })).toHaveCount(1);

    // Tab from the button before it lands on the grid, its first cell active.
    await page.getByRole('button', { name: 'Exportar' }).focus();
    await page.keyboard.press('Tab');
    await expect(grid).toBeFocused();
    const activeName = () =>
      grid.evaluate((g) => {
        const cell = document.getElementById(g.getAttribute('aria-activedescendant') ?? '');
        return cell?.querySelector('input')?.getAttribute('aria-label') ?? cell?.textContent ?? null;
      });
    await expect.poll(activeName).toBe(`${branch}, Bahías`);
    await page.keyboard.press('ArrowRight');
    await expect.poll(activeName).toBe(`${branch}, Técnicos`);

    // Typing edits the cell (its input, named as the cell, has the focus); Enter keeps the value
    // and the focus returns to the grid.
    await page.keyboard.type('7');
    await expect(grid.getByRole('textbox', { name: `${branch}, Técnicos` })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByText('1 celda sin guardar')).toBeVisible();
    await expect(grid).toBeFocused();

    // Esc leaves the cell; Tab then leaves the grid (no trap).
    await page.keyboard.press('Escape');
    await expect(grid).not.toHaveAttribute('aria-activedescendant');
    await page.keyboard.press('Tab');
    await expect(grid).not.toBeFocused();
    expect(await grid.evaluate((g) => g.contains(document.activeElement))).toBe(false);
    await context.close();
  });

  test('the login page and the public survey, at both sizes', async ({ browser }) => {
    const token = await tokenOf(ADMIN);
    // A reminder for one demo sale writes a mail with a fresh link to its survey.
    const sales = await apiCall<{ data: { id: number }[] }>(token, 'GET', '/sales?perPage=1');
    await apiCall(token, 'POST', '/sales-quiz-request', { sale_ids: [sales.data[0].id], reminder: true });
    const outbox = await apiCall<{ data: { text: string }[] }>(token, 'GET', '/mail-outbox?perPage=1');
    const link = /\/encuesta\?token=[\w-]+/.exec(outbox.data[0].text)?.[0];
    expect(link).toBeTruthy();
    const before = found.length;
    const from = counts.length;
    const context = await browser.newContext({ baseURL: BASE });
    const page = await context.newPage();
    for (const size of Object.keys(SIZES) as (keyof typeof SIZES)[]) {
      await page.setViewportSize(SIZES[size]);
      await page.goto('/');
      await expect(page.getByRole('button', { name: 'Iniciar Sesión' })).toBeVisible();
      await sweep(page, `público ${size} /login`);
      await page.goto(link!);
      await expect(
        page.getByRole('heading', { name: 'Encuesta de Satisfacción', exact: true }),
      ).toBeVisible();
      await sweep(page, `público ${size} /encuesta`);
      // With the required answers missing: the messages are on screen.
      await page.getByRole('button', { name: 'Enviar respuestas' }).click();
      await expect(page.getByText('Esta pregunta es obligatoria').first()).toBeVisible();
      await sweep(page, `público ${size} /encuesta (sin respuestas)`);
    }
    await context.close();
    printCounts(from);
    expect(report(found.slice(before)), 'público: axe, críticas y graves por pantalla').toEqual([]);
  });
});

/** One line per screen and rule: "screen: rule (impact) N nodos: target, target, target". */
function report(list: Found[]): string[] {
  return list.map(
    (f) => `${f.where}: ${f.rule} (${f.impact}) ${f.nodes} nodos: ${f.targets.join(' | ')} — ${f.help}`,
  );
}
