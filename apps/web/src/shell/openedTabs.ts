// Opened pages as tabs (SPEC §2 Tabs), persisted in local storage. Dashboard cannot be closed.
import { createStore, useStore } from '../lib/store';

export interface OpenedTab {
  name: string;
  title: string;
  /** Path plus query string, so a tab reopens the same list page. */
  url: string;
}

export const TABS_KEY = 'opened-tabs';
export const HOME_TAB: OpenedTab = { name: 'home', title: 'Dashboard', url: '/main/home' };

function read(): OpenedTab[] {
  try {
    const v = JSON.parse(localStorage.getItem(TABS_KEY) ?? '[]') as OpenedTab[];
    const list = Array.isArray(v)
      ? v.filter((t) => t && typeof t.name === 'string' && typeof t.url === 'string')
      : [];
    return list.some((t) => t.name === 'home') ? list : [HOME_TAB, ...list];
  } catch {
    return [HOME_TAB];
  }
}

export const tabsStore = createStore<{ tabs: OpenedTab[] }>({ tabs: read() });

function save(tabs: OpenedTab[]): void {
  localStorage.setItem(TABS_KEY, JSON.stringify(tabs));
  tabsStore.set({ tabs });
}

export const useOpenedTabs = () => useStore(tabsStore, (s) => s.tabs);

export const isClosable = (t: OpenedTab) => t.name !== 'home';

/** Opens (or refreshes the url of) the tab of the current page. */
export function openTab(tab: OpenedTab): void {
  const tabs = tabsStore.get().tabs;
  const i = tabs.findIndex((t) => t.name === tab.name);
  if (i >= 0) {
    if (tabs[i].url === tab.url && tabs[i].title === tab.title) return;
    save(tabs.map((t, j) => (j === i ? tab : t)));
  } else save([...tabs, tab]);
}

/** Closes a tab; returns the url to go to when it was the current one (the next tab). */
export function closeTab(name: string, currentName: string | undefined): string | null {
  const tabs = tabsStore.get().tabs;
  const i = tabs.findIndex((t) => t.name === name);
  if (i < 0 || !isClosable(tabs[i])) return null;
  const rest = tabs.filter((_, j) => j !== i);
  save(rest);
  if (name !== currentName) return null;
  const next = rest[i] ?? rest[i - 1] ?? HOME_TAB;
  return next.url;
}

/** 'Cerrar los otros': keeps the current tab (and Dashboard). */
export function closeOthers(currentName: string | undefined): void {
  save(tabsStore.get().tabs.filter((t) => !isClosable(t) || t.name === currentName));
}

/** 'Cerrar todo': keeps Dashboard and the session's tab; the caller goes to the session's tab. */
export function closeAll(sessionTab?: OpenedTab): void {
  const kept = tabsStore.get().tabs.filter((t) => !isClosable(t) || t.name === sessionTab?.name);
  save(kept);
}

export function resetTabs(): void {
  save([HOME_TAB]);
}
