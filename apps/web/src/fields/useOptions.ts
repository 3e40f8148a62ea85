// Options of a select: fixed, a general type (cached after login), the active records of a small
// catalogue (perPage=-1), or, for a catalogue that can grow big (its contract's
// `lookupMode: 'search'`), only what the server answers: the chosen records by id, the records
// searched as the user types (query-search, SPEC §5) and, for a select within a parent (a
// dealer's branches), the parent's first records. A select depending on a parent waits for it.
import { RESOURCE_CONTRACTS, type ResourceContract, resourceCalls } from '@app/contracts';
import { useQueries, useQuery } from '@tanstack/react-query';
import { useTypeOptions } from '../lib/generalTypes';
import { call } from '../lib/http';
import { isNewRecord } from './rules';
import type { FieldDef, Option } from './types';

export function optionFilter(field: FieldDef, values?: Record<string, unknown>) {
  const filter: Record<string, string | number> = { ...(field.filter ?? {}) };
  let waiting = false;
  if (field.dependsOn) {
    const parent = values?.[field.dependsOn.field];
    if (parent === undefined || parent === null || parent === '' || parent === 0) waiting = true;
    else filter[field.dependsOn.filter] = parent as number;
  }
  return { filter, waiting };
}

export function filterQuery(filter: Record<string, string | number>) {
  return Object.fromEntries(Object.entries(filter).map(([k, v]) => [`filter[${k}]`, String(v)]));
}

const CONTRACTS: Record<string, ResourceContract | undefined> = RESOURCE_CONTRACTS;

/** The contract says its catalogue is searched, never loaded whole. */
export const isSearchedCatalogue = (resource: string | undefined) =>
  !!resource && CONTRACTS[resource]?.lookupMode === 'search';

/** A select that searches the server: declared on the field, else by the resource's contract. */
export const isRemote = (field: FieldDef) =>
  !!field.resource && (field.remote ?? isSearchedCatalogue(field.resource));

const EMPTY: Option[] = [];

const isEmptyValue = (v: unknown) =>
  v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);

/** The ids a select holds (one or several). */
const idsOf = (value: unknown): (string | number)[] =>
  (Array.isArray(value) ? value : [value]).filter(
    (v): v is string | number => !isEmptyValue(v) && v !== 0 && v !== '0',
  );

export function useOptions(field: FieldDef, values?: Record<string, unknown>, value?: unknown) {
  const { filter, waiting } = optionFilter(field, values);
  const remote = isRemote(field);
  const key = field.optionValue ?? 'id';
  const typed = useTypeOptions(field.generalType, field.options ?? EMPTY);

  // A small catalogue: its active records, once (5 minutes).
  const whole = useQuery({
    queryKey: ['options', field.resource, filter],
    queryFn: () =>
      call(resourceCalls(field.resource!).list, {
        query: { perPage: -1, ...filterQuery(filter) },
      }) as Promise<Option[]>,
    enabled: !!field.resource && !field.options && !waiting && !remote,
    staleTime: 5 * 60_000,
  });

  // A searched catalogue: the first records of the parent (a dealer's branches), or the first
  // record when a new record's default is 0 (SPEC §4) — a bounded answer, never the table.
  const wantsFirst =
    field.default === 0 && isEmptyValue(value) && isNewRecord(values as Record<string, unknown> | undefined);
  const first = useQuery({
    queryKey: ['options', field.resource, 'first', filter],
    queryFn: () =>
      call(resourceCalls(field.resource!).search, { query: filterQuery(filter) }) as Promise<Option[]>,
    enabled: remote && !field.options && !waiting && (!!field.dependsOn || wantsFirst),
    staleTime: 60_000,
  });

  const base: Option[] = field.generalType
    ? typed
    : (field.options ?? (waiting ? EMPTY : remote ? (first.data ?? EMPTY) : (whole.data ?? EMPTY)));

  // The chosen records that are not among the options: fetched one by one (a form opening on a
  // record shows its dealer's name without loading every dealer).
  const missing = remote ? idsOf(value).filter((id) => !base.some((o) => String(o[key]) === String(id))) : [];
  const chosen = useQueries({
    queries: missing.map((id) => ({
      queryKey: ['options', field.resource, 'one', String(id)],
      queryFn: () =>
        (
          call(resourceCalls(field.resource!).get, { params: { id } }, { silent: true }) as Promise<Option>
        ).catch(() => null),
      staleTime: 5 * 60_000,
    })),
  });
  const extra = chosen.map((q) => q.data).filter((o): o is Option => !!o);
  const options = extra.length ? [...base, ...extra] : base;
  const loading = whole.isFetching || first.isFetching || chosen.some((q) => q.isFetching);
  return { options, loading, waiting, remote };
}
