// Settings, session and menu (SPEC §1 start-up): configurations merged into the global settings
// (a failure does not stop start-up), then the session and the user's tabs when a token exists.
import {
  type LoginInformation,
  type LoginResult,
  startupCalls,
  type TabNode,
  type TwoFactorChallenge,
} from '@app/contracts';
import { loadGeneralTypes } from '../lib/generalTypes';
import { call } from '../lib/http';
import { createStore, useStore } from '../lib/store';
import { clearToken, getToken, setLocking, setToken } from './token';

export type Settings = Record<string, string | number | boolean | null>;

export interface SessionState {
  settings: Settings;
  info: LoginInformation | null;
  menu: TabNode[] | null;
  /** 'booting' until start-up finishes; 'menu' while the tabs load. */
  status: 'booting' | 'menu' | 'ready';
}

export const DEFAULT_SETTINGS: Settings = {
  APP_NAME: 'Red de Concesionarios',
  DEFAULT_CURRENCY_SIGN: 'S/',
};

export const sessionStore = createStore<SessionState>({
  settings: { ...DEFAULT_SETTINGS },
  info: null,
  menu: null,
  status: 'booting',
});

export const useSession = <T>(select: (s: SessionState) => T) => useStore(sessionStore, select);

export function mergeSettings(patch: Settings | null | undefined): void {
  if (!patch || typeof patch !== 'object') return;
  sessionStore.set((s) => ({ settings: { ...s.settings, ...patch } }));
}

export async function loadSettings(): Promise<void> {
  try {
    mergeSettings((await call(startupCalls.settings, {}, { silent: true })) as Settings);
  } catch {
    // SPEC §1: a failing configuration call does not stop the product from starting.
  }
}

async function loadMenu(): Promise<void> {
  sessionStore.set({ status: 'menu', menu: null });
  try {
    const menu = await call(startupCalls.menu);
    sessionStore.set({ menu: menu ?? [], status: 'ready' });
  } catch {
    sessionStore.set({ menu: [], status: 'ready' });
  }
}

/** Loads the session of the stored token; no token or a rejected token leaves it empty. */
export async function loadSession(): Promise<boolean> {
  if (!getToken()) {
    sessionStore.set({ info: null, menu: null, status: 'ready' });
    return false;
  }
  try {
    const info = await call(startupCalls.loginInformation, {}, { silent: true });
    sessionStore.set({ info });
    // SPEC §3: the general types are loaded once per session and cached (the selects read them).
    void loadGeneralTypes();
    await loadMenu();
    return true;
  } catch {
    clearToken();
    sessionStore.set({ info: null, menu: null, status: 'ready' });
    return false;
  }
}

export async function startUp(): Promise<void> {
  await loadSettings();
  await loadSession();
}

export interface Credentials {
  username: string;
  password: string;
  rememberMe: boolean;
}

/**
 * Stores the token; throws the HttpError (401, 429, ...) without any toast. With a second factor
 * the password opens only the second step: its challenge is answered and no session starts yet.
 */
export async function login(c: Credentials): Promise<TwoFactorChallenge | null> {
  const r = await call(startupCalls.login, { body: c }, { silent: true });
  if ('two_factor' in r) return r;
  await startSession(r, c.rememberMe);
  return null;
}

/** A session answered by the login or by its second step. */
export async function startSession(r: LoginResult, rememberMe: boolean): Promise<void> {
  setToken(r.access_token, r.encrypted_access_token, r.expire_in_seconds, rememberMe);
  await loadSession();
}

export async function logout(): Promise<void> {
  try {
    await call(startupCalls.logout, {}, { silent: true });
  } catch {
    // The local session ends anyway.
  }
  clearToken();
  setLocking(null);
  localStorage.removeItem('opened-tabs');
  sessionStore.set({ info: null, menu: null, status: 'ready' });
}

/** Drops the local session (401 from any call). */
export function dropSession(): void {
  clearToken();
  sessionStore.set({ info: null, menu: null, status: 'ready' });
}

export function usePermission(name: string | null | undefined): boolean {
  return useSession((s) => !name || (s.info?.user.permissions.includes(name) ?? false));
}

/** The page title rule of SPEC §2. */
export function pageTitle(title: string): string {
  const { settings, info } = sessionStore.get();
  const base =
    (settings.COMPANY_NAME as string) || (settings.APP_NAME as string) || info?.application.name || '';
  return title ? `${base} - ${title}` : base;
}
