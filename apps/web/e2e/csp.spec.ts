// The Content-Security-Policy the server sends holds for every screen: the administrator opens
// every screen of the menu (and the dialog of a new record where there is one), the public
// survey, the lock screen and the API documentation; the guard of ./fixtures fails the test on
// any violation the browser reports.
import { MENU_TREE } from '@app/contracts';
import { expect, test } from './fixtures';
import { loginForm } from './helpers';

interface Node {
  path?: string;
  children?: Node[];
}

/** Every path of the menu that opens a screen (groups open their first child). */
function screenPaths(nodes: Node[], out: string[] = []): string[] {
  for (const n of nodes) {
    if (n.path && !n.children?.some((c) => c.path)) out.push(n.path);
    if (n.children) screenPaths(n.children, out);
  }
  return out;
}

test('the policy answered with every page lets every screen work', async ({ page, request }) => {
  test.setTimeout(240_000);
  const first = await request.get('/encuesta?token=abc');
  const csp = first.headers()['content-security-policy'];
  expect(csp).toContain("frame-ancestors 'none'");
  expect(first.headers()['referrer-policy']).toBe('no-referrer');

  // The public survey (an unknown link still renders the page) and the login page.
  await page.goto('/encuesta?token=no-existe-este-enlace');
  await expect(page.getByText('Encuesta no encontrada')).toBeVisible();

  await loginForm(page);
  const paths = [...screenPaths(MENU_TREE as Node[]), '/admin/users/profile', '/main/order'];
  expect(paths.length).toBeGreaterThan(20);
  for (const path of paths) {
    await page.goto(path);
    await expect(page.getByRole('heading').first(), path).toBeVisible();
    await page.waitForLoadState('networkidle');
    const create = page.getByRole('button', { name: 'Nuevo', exact: true });
    if (await create.isVisible()) {
      await create.click();
      const dialog = page.getByRole('dialog');
      await expect(dialog, path).toBeVisible();
      await page.waitForLoadState('networkidle');
      await page.keyboard.press('Escape');
      await expect(dialog, path).toHaveCount(0);
    }
  }

  await page.goto('/locking');
  await page.waitForLoadState('networkidle');

  // The API documentation (Swagger UI) renders under the same policy.
  await page.goto('/api/docs');
  await expect(page.getByText('Red de Concesionarios API').first()).toBeVisible();
  await expect(page.locator('.opblock').first()).toBeVisible();
});
