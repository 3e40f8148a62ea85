// The few addresses the first bundle needs. The screens table (screens.ts, built from the menu
// and the contracts) loads with the shell, not with the login page.

export const HOME_PATH = '/main/home';
export const FORBIDDEN_PATH = '/main/error-403';
/** `/tab/<screen name>`: opens a screen by its name (the session's default tab) once the table loads. */
export const TAB_PREFIX = '/tab/';

/** The session's default tab (a screen name, or a path) as an address. */
export function defaultTabAddress(defaultTab: string | null | undefined): string {
  if (defaultTab?.startsWith('/')) return defaultTab;
  return defaultTab ? `${TAB_PREFIX}${encodeURIComponent(defaultTab)}` : HOME_PATH;
}
