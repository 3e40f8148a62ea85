// The dealer and manufacturer chosen in the toolbar (SPEC §6): persisted in local storage and
// read by every screen that has a dealer or brand filter. A dealer user is locked to its dealer.
import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from 'react';
import { useSession } from './session';

export interface GlobalFilters {
  /** 0 = Todos. */
  dealerId: number;
  /** 0 = Todas. */
  manufacturerId: number;
  dealerLocked: boolean;
  setDealerId: (id: number) => void;
  setManufacturerId: (id: number) => void;
}

const DEALER_KEY = 'filter-dealer';
const BRAND_KEY = 'filter-manufacturer';

const readNumber = (key: string) => {
  const n = Number(localStorage.getItem(key) ?? 0);
  return Number.isFinite(n) && n > 0 ? n : 0;
};

const Ctx = createContext<GlobalFilters>({
  dealerId: 0,
  manufacturerId: 0,
  dealerLocked: false,
  setDealerId: () => {},
  setManufacturerId: () => {},
});

export function GlobalFiltersProvider({ children }: { children: ReactNode }) {
  const user = useSession((s) => s.info?.user);
  const [dealerChoice, setDealerChoice] = useState(() => readNumber(DEALER_KEY));
  const [manufacturerId, setBrand] = useState(() => readNumber(BRAND_KEY));
  const dealerLocked = !!user?.isDealer;
  const dealerId = dealerLocked ? (user?.dealer_id ?? 0) : dealerChoice;

  const setDealerId = useCallback(
    (id: number) => {
      if (dealerLocked) return;
      localStorage.setItem(DEALER_KEY, String(id));
      setDealerChoice(id);
    },
    [dealerLocked],
  );
  const setManufacturerId = useCallback((id: number) => {
    localStorage.setItem(BRAND_KEY, String(id));
    setBrand(id);
  }, []);

  const value = useMemo(
    () => ({ dealerId, manufacturerId, dealerLocked, setDealerId, setManufacturerId }),
    [dealerId, manufacturerId, dealerLocked, setDealerId, setManufacturerId],
  );
  return <Ctx.Provider value={value}>{children}</Ctx.Provider>;
}

export const useGlobalFilters = () => useContext(Ctx);
