import { describe, expect, it } from 'vitest';
import { formatLabel, formatPrice, maskPhone, numericText } from '../src/fields/masks';

describe('masks', () => {
  it('phone: mobile, Lima landline and country code', () => {
    expect(maskPhone('987654321')).toBe('987 654 321');
    expect(maskPhone('98765')).toBe('987 65');
    expect(maskPhone('abc9876-54321xyz')).toBe('987 654 321');
    expect(maskPhone('012345678')).toBe('(01) 234-5678');
    expect(maskPhone('+51987654321')).toBe('+51 987 654 321');
  });
  it('price: two decimals; numbers keep one decimal point', () => {
    expect(formatPrice(12)).toBe('12.00');
    expect(formatPrice('3.456')).toBe('3.46');
    expect(formatPrice('')).toBe('');
    expect(numericText('1a2.3.4%')).toBe('12.34');
    expect(numericText('-5', true)).toBe('-5');
    expect(numericText('-5')).toBe('5');
  });
  it('read-only label: numbers with 2 decimals', () => {
    expect(formatLabel(1234.5)).toMatch(/1.?234[.,]50/);
    expect(formatLabel(2)).toMatch(/2[.,]00/);
    expect(formatLabel('texto')).toBe('texto');
  });
});
