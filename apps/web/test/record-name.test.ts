// The delete confirmation names the record as the list shows it (issue 16), not '#129'.
import { saleContract, userContract, zoneContract } from '@app/contracts';
import { describe, expect, it } from 'vitest';
import { recordName } from '../src/resources/recordName';

const cols = (...f: string[]) => f.map((field) => ({ field }));

describe('recordName', () => {
  it('uses the values the list searches by, in column order', () => {
    const sale = { id: 129, sale_date: '2025-06-01', invoice: 'F001-129', buyer_name: 'Ana Torres' };
    expect(recordName(saleContract, cols('sale_date', 'dealer_name', 'invoice', 'buyer_name'), sale)).toBe(
      'F001-129 - Ana Torres',
    );
    expect(
      recordName(userContract, cols('avatar_url', 'username', 'full_name'), {
        id: 7,
        username: 'jperez',
        full_name: 'Juan Perez',
      }),
    ).toBe('jperez - Juan Perez');
    expect(recordName(zoneContract, cols('code', 'name'), { id: 3, code: null, name: 'Zona Sur' })).toBe(
      'Zona Sur',
    );
  });

  it('falls back to a name, then the first text shown, and only then the id', () => {
    expect(recordName({ fields: {} }, cols('x'), { id: 4, full_name: 'Rosa Diaz' })).toBe('Rosa Diaz');
    expect(recordName({ fields: {} }, cols('n', 'label'), { id: 4, n: 3, label: 'Etiqueta' })).toBe(
      'Etiqueta',
    );
    expect(recordName({ fields: {} }, cols('n'), { id: 4, n: 3 })).toBe('#4');
  });
});
