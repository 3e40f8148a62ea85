// SPEC §5 messages word for word, defaults for new records (SPEC §4), the autocomplete rule.
import { describe, expect, it } from 'vitest';
import { initialValues, shouldSearch, today, validateValue } from '../src/fields/rules';
import type { FieldDef } from '../src/fields/types';

const f = (over: Partial<FieldDef>): FieldDef => ({ name: 'x', type: 'text', label: 'Nombre', ...over });

describe('validation messages (SPEC §5)', () => {
  it('required: "{field} es obligatorio"', () => {
    expect(validateValue(f({ required: true }), '')).toBe('Nombre es obligatorio');
    expect(validateValue(f({ required: true }), null)).toBe('Nombre es obligatorio');
    expect(validateValue(f({ required: true, type: 'select', label: 'Zona' }), [])).toBe(
      'Zona es obligatorio',
    );
    expect(validateValue(f({ required: true }), 'Lima')).toBe(true);
  });
  it('minimum and maximum values', () => {
    const n = f({ type: 'number', label: 'Cantidad', min: 1, max: 10 });
    expect(validateValue(n, 0)).toBe('Cantidad el valor mínimo es 1');
    expect(validateValue(n, 11)).toBe('Cantidad el valor máximo es 10');
    expect(validateValue(n, 5)).toBe(true);
    expect(validateValue(f({ type: 'percent', label: 'Descuento', max: 100 }), 120)).toBe(
      'Descuento el valor máximo es 100',
    );
  });
  it('password: Mínimo 8 caracteres', () => {
    const p = f({ type: 'password', label: 'Contraseña', required: true });
    expect(validateValue(p, '1234567')).toBe('Mínimo 8 caracteres');
    expect(validateValue(p, '12345678')).toBe(true);
    expect(validateValue(p, '')).toBe('Contraseña es obligatorio');
  });
  it('email: Debe ser un Email válido.', () => {
    const e = f({ type: 'email', label: 'Email', required: true });
    expect(validateValue(e, 'ana@')).toBe('Debe ser un Email válido.');
    expect(validateValue(e, 'ana@example.com')).toBe(true);
  });
  it('date: exactly 10 characters, YYYY-MM-DD', () => {
    const d = f({ type: 'date', label: 'Fecha' });
    expect(validateValue(d, '2024-1-5')).toBe('Formato de fecha YYYY-MM-DD');
    expect(validateValue(d, '05/01/2024')).toBe('Formato de fecha YYYY-MM-DD');
    expect(validateValue(d, '2024-01-05')).toBe(true);
    const r = f({ type: 'daterange', label: 'Periodo' });
    expect(validateValue(r, ['2024-01-05', null])).toBe('Periodo es obligatorio');
    expect(validateValue(r, ['2024-01-05', '2024-01-09'])).toBe(true);
  });
});

describe('defaults apply only to new records (SPEC §4)', () => {
  const fields: FieldDef[] = [
    { name: 'date', type: 'date', default: 'today' },
    {
      name: 'zone_id',
      type: 'select',
      default: 0,
      options: [
        { id: 7, name: 'Norte' },
        { id: 8, name: 'Sur' },
      ],
    },
    { name: 'note', type: 'text', default: 'hola' },
  ];
  it("a new record gets 'today', the first option for 0, and plain defaults", () => {
    expect(initialValues(fields, {})).toEqual({ date: today(), zone_id: 7, note: 'hola' });
    expect(initialValues(fields, { id: 0 })).toMatchObject({ date: today(), zone_id: 7 });
  });
  it('an existing record keeps its values and gets no defaults', () => {
    expect(initialValues(fields, { id: 3, date: null })).toEqual({ id: 3, date: null });
  });
});

describe('autocomplete search rule (SPEC §5)', () => {
  const options = [{ id: 1, name: 'Lima' }];
  it('searches from the minimum length (default 2)', () => {
    expect(shouldSearch({ text: 'a', options })).toBe(false);
    expect(shouldSearch({ text: 'ab', options })).toBe(true);
    expect(shouldSearch({ text: 'abc', minLength: 4, options })).toBe(false);
    expect(shouldSearch({ text: 'abcd', minLength: 4, options })).toBe(true);
  });
  it('empty text or 0 never searches', () => {
    expect(shouldSearch({ text: '', options, minLength: 0 })).toBe(false);
    expect(shouldSearch({ text: '0', options, minLength: 0 })).toBe(false);
    expect(shouldSearch({ text: null, options })).toBe(false);
  });
  it('not when read-only or disabled', () => {
    expect(shouldSearch({ text: 'Callao', readOnly: true, options })).toBe(false);
    expect(shouldSearch({ text: 'Callao', disabled: true, options })).toBe(false);
  });
  it('not when an option already matches the text in upper case', () => {
    expect(shouldSearch({ text: 'lima', options })).toBe(false);
    expect(shouldSearch({ text: 'LIMA', options })).toBe(false);
    expect(shouldSearch({ text: 'lim', options })).toBe(true);
    expect(
      shouldSearch({ text: 'Ica', options: [{ id: 1, code: 'ICA', name: 'x' }], optionLabel: 'code' }),
    ).toBe(false);
  });
});
