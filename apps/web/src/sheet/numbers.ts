// Numbers of the grids: the shared formatter of the contracts (es-PE: 1,234.50, 'S/ 1,234.50',
// '85.0 %'), and the currency sign of the settings.
import { DEFAULT_CURRENCY } from '@app/contracts';
import { useSession } from '../session/session';

export {
  formatCount,
  formatMeasure,
  formatMoney,
  formatNumber,
  formatPercent,
  formatRatio,
  type NumberKind,
  parseNumber,
} from '@app/contracts';

/** The currency sign of the settings (SPEC §5: DEFAULT_CURRENCY_SIGN). */
export function useCurrencySign(): string {
  return useSession((s) => String(s.settings.DEFAULT_CURRENCY_SIGN ?? DEFAULT_CURRENCY));
}
