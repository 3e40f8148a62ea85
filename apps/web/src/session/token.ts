// Where the session token lives: a cookie that expires only when the user asked to be remembered
// (SPEC §4 Login), so without rememberMe closing the browser ends the session.
const TOKEN = 'AuthToken';
const ENC_TOKEN = 'enc_auth_token';
const LOCKING = 'locking';

export function readCookie(name: string): string | null {
  const m = new RegExp(`(?:^|; )${name}=([^;]*)`).exec(document.cookie);
  return m ? decodeURIComponent(m[1]) : null;
}

export function writeCookie(name: string, value: string | null, expires?: Date): void {
  if (value === null) {
    // biome-ignore lint/suspicious/noDocumentCookie: the locking cookie of SPEC §2 is a plain cookie
    document.cookie = `${name}=; path=/; expires=Thu, 01 Jan 1970 00:00:00 GMT; SameSite=Lax`;
    return;
  }
  const exp = expires ? `; expires=${expires.toUTCString()}` : '';
  // biome-ignore lint/suspicious/noDocumentCookie: the locking cookie of SPEC §2 is a plain cookie
  document.cookie = `${name}=${encodeURIComponent(value)}; path=/${exp}; SameSite=Lax`;
}

export function getToken(): string | null {
  return readCookie(TOKEN);
}

export function setToken(
  token: string,
  encrypted: string,
  expireInSeconds: number,
  rememberMe: boolean,
): void {
  const expires = rememberMe ? new Date(Date.now() + expireInSeconds * 1000) : undefined;
  writeCookie(TOKEN, token, expires);
  writeCookie(ENC_TOKEN, encrypted, expires);
  localStorage.setItem('rememberMe', rememberMe ? '1' : '0');
}

export function wasRemembered(): boolean {
  return localStorage.getItem('rememberMe') === '1';
}

export function clearToken(): void {
  writeCookie(TOKEN, null);
  writeCookie(ENC_TOKEN, null);
}

/** The `locking` cookie of SPEC §2: '1' locked, '0' unlocked, null never locked. */
export function getLocking(): string | null {
  return readCookie(LOCKING);
}

export function setLocking(value: '0' | '1' | null): void {
  writeCookie(LOCKING, value);
}

/** The lock screen's address: it names the page that was locked, so unlocking returns there. */
export function lockingPath(from: string): string {
  return from && from !== '/' && !from.startsWith('/locking')
    ? `/locking?redirect=${encodeURIComponent(from)}`
    : '/locking';
}

/** Where unlocking goes: the locked page (an address of this app), or `fallback`. */
export function unlockedPath(search: string, fallback: string): string {
  const to = new URLSearchParams(search).get('redirect');
  return to?.startsWith('/') && !to.startsWith('//') && !to.startsWith('/locking') ? to : fallback;
}
