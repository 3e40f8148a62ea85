// The grids' numbers: what a user types or pastes from Excel is read in the es-PE way, and
// values show with the currency sign or % as their concept's unit says.
import {
  excelFormat,
  formatCount,
  formatDay,
  formatMoney,
  formatPercent,
  formatPointChange,
  formatRelativeChange,
} from '@app/contracts';
import { describe, expect, it } from 'vitest';
import { formatNumber, formatRatio, parseNumber } from '../src/sheet/numbers';

describe('sheet numbers', () => {
  it('reads typed and pasted text', () => {
    expect(parseNumber('1,234.5')).toBe(1234.5);
    expect(parseNumber(' S/ 3,567,250.50 ')).toBe(3567250.5);
    expect(parseNumber('85 %')).toBe(85);
    expect(parseNumber('(12)')).toBe(-12);
    expect(parseNumber('-7')).toBe(-7);
    expect(parseNumber('')).toBeNull();
    expect(parseNumber('ochenta')).toBeUndefined();
    expect(parseNumber('1.2.3')).toBeUndefined();
    expect(parseNumber('US$ 10', 'US$')).toBe(10);
  });

  it('shows numbers in es-PE with the currency sign setting', () => {
    expect(formatNumber(3567250.5, 'currency')).toBe('S/ 3,567,250.50');
    expect(formatNumber(1234.5, 'currency', 'US$')).toBe('US$ 1,234.50');
    expect(formatNumber(1350, 'number')).toBe('1,350');
    expect(formatNumber(17.456, 'percent')).toBe('17.5 %');
    expect(formatNumber(null, 'number')).toBe('');
    expect(formatRatio(0.8534)).toBe('85.3 %');
    expect(formatRatio(null)).toBe('—');
  });

  it('formats money, percentages and counts alike everywhere (one formatter, Excel alike)', () => {
    expect(formatMoney(2355699.7)).toBe('S/ 2,355,699.70');
    expect(formatMoney(-14)).toBe('-S/ 14.00');
    expect(formatPercent(85)).toBe('85.0 %');
    expect(formatNumber(85, 'percent')).toBe('85.0 %');
    expect(formatRatio(1.078)).toBe('107.8 %');
    expect(formatNumber(-0.001, 'percent')).toBe('0.0 %');
    expect(formatCount(1250)).toBe('1,250');
    expect(formatCount(null)).toBe('—');
    expect(excelFormat('currency')).toBe('"S/ "#,##0.00');
    expect(excelFormat('percent')).toBe('0.0 %');
    expect(excelFormat('integer')).toBe('#,##0');
    expect(excelFormat('number', 'S/', 1)).toBe('#,##0.0');
  });

  it('a change of a percentage reads in points (pp), of a count in per cent', () => {
    expect(formatPointChange(2.34)).toBe('+2.3 pp');
    expect(formatPointChange(-1)).toBe('−1.0 pp');
    expect(formatPointChange(0)).toBe('0.0 pp');
    // What rounds to zero has no sign: '0.0 pp', never '+0.0 pp' or '−0.0 pp'.
    expect(formatPointChange(0.03)).toBe('0.0 pp');
    expect(formatRelativeChange(-0.04)).toBe('0.0 %');
    expect(formatRelativeChange(1250.55)).toBe('+1,250.6 %');
    expect(formatPointChange(null)).toBe('—');
  });

  it('a date reads dd/mm/aaaa, an instant in Lima’s time', () => {
    expect(formatDay('2026-11-29')).toBe('29/11/2026');
    // 03:10 UTC on the 30th is 22:10 of the 29th in Lima.
    expect(formatDay('2026-11-30T03:10:09.000Z')).toBe('29/11/2026 22:10');
    expect(formatDay('2026-11-30T03:10:09+00:00', true)).toBe('29/11/2026 22:10:09');
    expect(formatDay(null)).toBe('—');
    expect(formatDay('Pendiente')).toBe('Pendiente');
  });
});
