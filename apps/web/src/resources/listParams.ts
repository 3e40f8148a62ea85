// The list state (page, page size, sort, search, column filters, hidden columns) lives in the
// URL, so a reload, a shared link or a saved view shows the same list. The page size a user
// chooses is also kept per list in local storage: the list opens at it when the URL names none.
import { PAGE_SIZES } from '@app/contracts';
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';

export interface ListParams {
  page: number;
  perPage: number;
  sort?: string;
  order?: 'asc' | 'desc';
  query?: string;
  filters: Record<string, string>;
  /** Columns the user hid (`hide=a,b`). */
  hidden?: string[];
}

const sizeKey = (list: string) => `list-page-size:${list}`;

/** The page size the user chose for a list, if any (one of SPEC's 5, 10, 20, 50). */
export function storedPageSize(list: string | undefined): number | undefined {
  if (!list) return undefined;
  try {
    const n = Number(localStorage.getItem(sizeKey(list)));
    return (PAGE_SIZES as readonly number[]).includes(n) ? n : undefined;
  } catch {
    return undefined;
  }
}

/** Remembers the page size chosen for a list (the list's default forgets it). */
export function storePageSize(list: string, size: number, defaultPerPage: number): void {
  try {
    if (size === defaultPerPage) localStorage.removeItem(sizeKey(list));
    else localStorage.setItem(sizeKey(list), String(size));
  } catch {
    // storage unavailable (private mode): the URL still carries the size
  }
}

export function readListParams(sp: URLSearchParams, defaultPerPage: number, list?: string): ListParams {
  const filters: Record<string, string> = {};
  for (const [k, v] of sp) {
    const m = /^filter\[(\w+)\]$/.exec(k);
    if (m && v !== '') filters[m[1]] = v;
  }
  const page = Math.max(1, Number(sp.get('page')) || 1);
  const perPage = Number(sp.get('perPage')) || storedPageSize(list) || defaultPerPage;
  const order = sp.get('order');
  return {
    page,
    perPage,
    sort: sp.get('sort') || undefined,
    order: order === 'asc' || order === 'desc' ? order : undefined,
    query: sp.get('query') || undefined,
    filters,
    hidden: sp.get('hide')?.split(',').filter(Boolean) || undefined,
  };
}

export function writeListParams(p: ListParams, defaultPerPage: number): URLSearchParams {
  const sp = new URLSearchParams();
  if (p.page > 1) sp.set('page', String(p.page));
  if (p.perPage !== defaultPerPage) sp.set('perPage', String(p.perPage));
  if (p.sort) {
    sp.set('sort', p.sort);
    sp.set('order', p.order ?? 'asc');
  }
  if (p.query) sp.set('query', p.query);
  for (const [k, v] of Object.entries(p.filters)) if (v !== '') sp.set(`filter[${k}]`, v);
  if (p.hidden?.length) sp.set('hide', p.hidden.join(','));
  return sp;
}

/** The API query of a list: page (1-based), perPage, sort, order, query, filter[field]. */
export function toApiQuery(p: ListParams, extra: Record<string, string> = {}): Record<string, string> {
  const q: Record<string, string> = { page: String(p.page), perPage: String(p.perPage) };
  if (p.sort) {
    q.sort = p.sort;
    q.order = p.order ?? 'asc';
  }
  if (p.query) q.query = p.query;
  for (const [k, v] of Object.entries({ ...p.filters, ...extra })) q[`filter[${k}]`] = v;
  return q;
}

/** The list's state from the URL; `list` names it for the page size the user chose (its path). */
export function useListParams(defaultPerPage: number, list?: string) {
  const [sp, setSp] = useSearchParams();
  const params = useMemo(() => readListParams(sp, defaultPerPage, list), [sp, defaultPerPage, list]);
  const update = useCallback(
    (patch: Partial<ListParams>) => {
      const next = { ...params, ...patch };
      if (list && patch.perPage !== undefined && patch.perPage !== params.perPage)
        storePageSize(list, patch.perPage, defaultPerPage);
      setSp(writeListParams(next, defaultPerPage), { replace: true });
    },
    [params, setSp, defaultPerPage, list],
  );
  return [params, update] as const;
}
