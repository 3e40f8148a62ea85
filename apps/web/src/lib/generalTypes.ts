// General types (SPEC §3: a values list loaded once and cached): GET /api/general-types-values
// is read once after login and kept; Preferences refreshes it when a general type or one of its
// values is saved or deleted. Every select, column and filter of a field declared with
// `generalType` takes its options and names from here (the compiled list until it arrives).
import { startupCalls } from '@app/contracts';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { call } from './http';
import type { Option } from './option';
import { queryClient } from './queryClient';

export interface TypeValue {
  id: number;
  code: string;
  name: string;
  payload: unknown;
}
export type GeneralTypes = Record<string, TypeValue[]>;

export const GENERAL_TYPES_KEY = ['general-types-values'] as const;

const fetchGeneralTypes = () =>
  call(startupCalls.generalTypeValues, {}, { silent: true }) as Promise<GeneralTypes>;

/** After login: the one load of the session (a later login loads them again). */
export function loadGeneralTypes(): Promise<void> {
  return queryClient
    .fetchQuery({ queryKey: GENERAL_TYPES_KEY, queryFn: fetchGeneralTypes, staleTime: 0 })
    .then(
      () => undefined,
      () => undefined,
    );
}

/** Preferences saved a general type or a value: every select reads the new names. */
export function refreshGeneralTypes(): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: GENERAL_TYPES_KEY });
}

/**
 * The cached general types (undefined until they arrive; never fetched again on their own).
 * `enabled: false` only reads the cache (a select without a general type asks nothing).
 */
export function useGeneralTypes(enabled = true): GeneralTypes | undefined {
  return useQuery({
    queryKey: GENERAL_TYPES_KEY,
    queryFn: fetchGeneralTypes,
    enabled,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
    retry: false,
  }).data;
}

/** The stored value of a type value: its numeric payload value (week days, months), else its code. */
export function storedValue(v: TypeValue): string | number {
  const p = v.payload as { value?: unknown } | null;
  return typeof p?.value === 'number' ? p.value : v.code;
}

/**
 * The options of a general type, in its order and active values only; the compiled list when
 * the type is unknown or not loaded yet.
 */
export function typeOptions(
  types: GeneralTypes | undefined,
  code: string,
  fallback: readonly { id: string | number; name: string }[] = [],
): Option[] {
  const values = types?.[code];
  if (!values?.length) return fallback.map((o) => ({ id: o.id, name: o.name }));
  return values.map((v) => ({ id: storedValue(v), name: v.name }));
}

export function useTypeOptions(
  code: string | undefined,
  fallback: readonly { id: string | number; name: string }[] = [],
): Option[] {
  const types = useGeneralTypes(!!code);
  return useMemo(() => (code ? typeOptions(types, code, fallback) : [...fallback]), [types, code, fallback]);
}

/** The name of a stored value: the general type's, else the compiled list's, else the value itself. */
export function useTypeName(
  code: string,
  fallback: readonly { id: string | number; name: string }[] = [],
): (id: unknown) => string {
  const types = useGeneralTypes();
  return useCallback((id: unknown) => typeName(types, code, fallback, id), [types, code, fallback]);
}

export function typeName(
  types: GeneralTypes | undefined,
  code: string,
  fallback: readonly { id: string | number; name: string }[],
  id: unknown,
): string {
  const hit = types?.[code]?.find((v) => String(storedValue(v)) === String(id));
  if (hit) return hit.name;
  return fallback.find((o) => String(o.id) === String(id))?.name ?? (id == null ? '' : String(id));
}
