// Issue 27: a list column is sized by what it holds (declared type and expected length), so CEM's
// list no longer gives the VIN the room and cuts dealer, invoice, client and e-mail to eight
// characters.
import { saleContract } from '@app/contracts';
import { describe, expect, it } from 'vitest';
import { salesScreen } from '../src/modules/sales/sales.screen';
import { columnChars, columnMinWidth } from '../src/resources/fromContract';

/** Characters a column shows whole at its narrowest (7.5 px a character, 22 px of padding). */
const readable = (minWidth: number) => Math.floor((minWidth - 22) / 7.5);

describe('list columns sized by what they hold', () => {
  const col = (field: string) => salesScreen.columns.find((c) => c.field === field)!;

  it("CEM's dealer, invoice, client and e-mail read whole, not eight characters", () => {
    expect(readable(col('dealer_name').minWidth!)).toBeGreaterThanOrEqual('Motor Plaza San Isidro'.length);
    expect(readable(col('invoice').minWidth!)).toBeGreaterThanOrEqual('F001-00001234'.length);
    expect(readable(col('buyer_name').minWidth!)).toBeGreaterThanOrEqual('Carmen Rojas Paredes'.length);
    expect(readable(col('email').minWidth!)).toBeGreaterThanOrEqual('carmen.rojas@correo.pe'.length);
  });

  it('the VIN gets its 17 characters, no more than a name', () => {
    const vin = col('vin');
    expect(vin.width ?? vin.minWidth!).toBeGreaterThanOrEqual(17 * 7.5);
    expect(vin.width ?? vin.minWidth!).toBeLessThanOrEqual(col('email').minWidth! + 10);
  });

  it('the dealer leads the CEM list', () => {
    expect(salesScreen.columns[0].field).toBe('dealer_name');
  });

  it('the width follows the declared type and length', () => {
    const f = saleContract.fields;
    expect(columnChars(f.sale_date, 'date')).toBe(10);
    expect(columnChars(f.email, 'string')).toBe(26);
    expect(columnChars(f.document_number, 'string')).toBe(20);
    expect(columnChars(f.dealer_name, 'string')).toBe(22);
    expect(columnChars(undefined, 'string', [{ id: 'a', name: 'Contacto inválido' }])).toBe(17);
    // A header longer than its values is not cut either.
    expect(columnMinWidth(2, 'Habilitado')).toBeGreaterThan('Habilitado'.length * 7.5);
  });
});
