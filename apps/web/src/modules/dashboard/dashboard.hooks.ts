// The dashboard's filters (year and month of the screen, dealer and brand of the toolbar, all
// kept in the URL) and the loading of one widget group, shared by the home tab and the Tablero.
import {
  DASHBOARD_GROUP_PERMISSIONS,
  type DashboardGroups,
  type DashboardSchema,
  dashboardCalls,
} from '@app/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { thisYear } from '../../fields/PeriodFields';
import { call } from '../../lib/http';
import { useGlobalFilters } from '../../session/filters';
import { usePermission } from '../../session/session';

/** The filters of the URL, kept in step with the toolbar's dealer and brand. */
export function useDashboardFilters() {
  const [sp, setSp] = useSearchParams();
  const { dealerId, manufacturerId, dealerLocked, setDealerId, setManufacturerId } = useGlobalFilters();
  const currentYear = thisYear();
  const year = Number(sp.get('year')) || currentYear;
  const month = Number(sp.get('month')) || 0;
  // A shared address sets the toolbar once; afterwards the toolbar writes the address.
  // biome-ignore lint/correctness/useExhaustiveDependencies: read the address once, on arrival
  useEffect(() => {
    const d = Number(sp.get('dealer_id'));
    const b = Number(sp.get('manufacturer_id'));
    if (sp.has('dealer_id') && !dealerLocked && Number.isFinite(d)) setDealerId(d);
    if (sp.has('manufacturer_id') && Number.isFinite(b)) setManufacturerId(b);
  }, []);
  useEffect(() => {
    const next = new URLSearchParams(sp);
    const put = (k: string, v: number) => (v ? next.set(k, String(v)) : next.delete(k));
    // The current year is the default (SPEC §9): the address names only what differs.
    put('year', year === currentYear ? 0 : year);
    put('month', month);
    put('dealer_id', dealerId);
    put('manufacturer_id', manufacturerId);
    if (next.toString() !== sp.toString()) setSp(next, { replace: true });
  }, [sp, setSp, year, currentYear, month, dealerId, manufacturerId]);
  const set = (k: 'year' | 'month', v: number) => {
    const next = new URLSearchParams(sp);
    if (v) next.set(k, String(v));
    else next.delete(k);
    setSp(next, { replace: true });
  };
  return {
    year,
    month,
    dealerId,
    manufacturerId,
    setYear: (v: number) => set('year', v),
    setMonth: (v: number) => set('month', v),
  };
}

export function useGroup<S extends DashboardSchema>(schema: S, params: Record<string, number>) {
  const allowed = usePermission(DASHBOARD_GROUP_PERMISSIONS[schema]);
  const q = useQuery({
    queryKey: ['dashboard', schema, params],
    queryFn: ({ signal }) => call(dashboardCalls.summary, { query: { ...params, schema } }, { signal }),
    enabled: allowed,
    placeholderData: keepPreviousData,
  });
  // The answer's group is the one its schema names.
  const data = q.data?.result as DashboardGroups[S] | undefined;
  return { allowed, loading: allowed && q.isPending, data, period: q.data?.period };
}
