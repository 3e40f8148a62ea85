// Options of a select: fixed, or the active records of a resource (perPage=-1), filtered by
// a parent field when the select depends on one.
import { useQuery } from '@tanstack/react-query';
import { http } from '../api/http';
import { useTypeOptions } from '../app/generalTypes';
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

const EMPTY: Option[] = [];

export function useOptions(field: FieldDef, values?: Record<string, unknown>) {
  const { filter, waiting } = optionFilter(field, values);
  const q = useQuery({
    queryKey: ['options', field.resource, filter],
    queryFn: () => http.get<Option[]>(`/${field.resource}`, { perPage: -1, ...filterQuery(filter) }),
    enabled: !!field.resource && !field.options && !waiting,
    staleTime: 5 * 60_000,
  });
  const typed = useTypeOptions(field.generalType, field.options ?? EMPTY);
  const options: Option[] = field.generalType
    ? typed
    : (field.options ?? (waiting ? EMPTY : (q.data ?? EMPTY)));
  return { options, loading: q.isFetching, waiting };
}
