// Shared steps of the browser flows: log in through the form, call the API as admin, screenshots.
import { type APIRequestContext, expect, type Page } from '@playwright/test';

export const ADMIN = { username: 'admin', password: 'Admin12345' };

export async function loginForm(page: Page, user = ADMIN, rememberMe = false): Promise<void> {
  await page.goto('/');
  await page.locator('input[name=username]').fill(user.username);
  await page.locator('input[name=password]').fill(user.password);
  if (rememberMe) await page.getByLabel('Recordarme').check();
  await page.getByRole('button', { name: 'Iniciar Sesión' }).click();
  // The sign-in passes through /tab/<home> until the menu's table loads: on a loaded machine
  // (load 23) that took over the default 10 s, so this waits for the page, up to the test's budget.
  await expect(page).toHaveURL(/\/main\//, { timeout: 60_000 });
  // The lazy shell is on screen (its shortcuts are live).
  await expect(page.getByRole('button', { name: 'Menú de usuario' })).toBeVisible();
}

export async function apiToken(request: APIRequestContext, user = ADMIN): Promise<string> {
  const r = await request.post('/api/auth/login', { data: { ...user, rememberMe: false } });
  expect(r.ok()).toBeTruthy();
  return (await r.json()).result.access_token;
}

export async function api<T = any>(
  request: APIRequestContext,
  token: string,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  data?: unknown,
): Promise<T> {
  const r = await request.fetch(`/api${url}`, {
    method,
    data,
    headers: { Authorization: `Bearer ${token}`, 'X-Requested-With': 'XMLHttpRequest' },
  });
  const body = await r.json();
  if (!r.ok()) throw new Error(`${method} ${url}: ${r.status()} ${JSON.stringify(body.error)}`);
  return body.result as T;
}

export async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `test-results/${name}.png`, fullPage: false });
}

/** A unique suffix so flows do not collide within one database. */
export const uid = () => Date.now().toString(36).slice(-5);

/**
 * Lima's wall clock now: a Date whose UTC fields read Lima's date and time (the server's business
 * day; the suite's server clock is pinned to 23:00 in Lima of today, playwright.config.ts).
 */
export const limaNow = () => new Date(Date.now() - 5 * 3_600_000);
/** Lima's today, YYYY-MM-DD, `offset` days away. */
export const limaDay = (offset = 0) =>
  new Date(Date.now() - 5 * 3_600_000 + offset * 86_400_000).toISOString().slice(0, 10);

/** Types a date (given YYYY-MM-DD) into the kit's date input by its label: Spanish, sections dd/mm/aaaa. */
export async function fillDate(page: Page, label: string, ymd: string): Promise<void> {
  const group = page.getByRole('group', { name: label, exact: true });
  const [y, m, d] = ymd.split('-');
  await group.getByRole('spinbutton').first().click();
  await page.keyboard.type(`${d}${m}${y}`);
  await expect(group.locator('xpath=..').locator('input')).toHaveValue(`${d}/${m}/${y}`);
}
