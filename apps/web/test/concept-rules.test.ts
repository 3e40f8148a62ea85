// The figures and fees grids' rules of a concept: a value that breaks its kind is refused naming
// the cell, one beyond its plausible range is warned about (and kept); confirming a month says
// how many concepts are still empty.
import type { ConceptRule } from '@app/contracts';
import { describe, expect, it } from 'vitest';
import { conceptRules } from '../src/modules/figures/common';
import { emptyConceptsText } from '../src/modules/figures/PeriodActions';

const testDrives: ConceptRule = {
  name: 'Pruebas de manejo',
  unit: 'UND',
  decimals: 0,
  plausible_min: 0,
  plausible_max: 5000,
};
const billing: ConceptRule = {
  name: 'Facturación de vehículos nuevos',
  unit: 'PEN',
  decimals: 2,
  plausible_min: 10000,
  plausible_max: 500000000,
};
const where = (key: string) => `${key === 'm11' ? 'Nov' : key} 2026`;

describe('concept rules of the grids', () => {
  it('refuses a fractional count and too many decimals, naming the cell', () => {
    const r = conceptRules<ConceptRule>((c) => c, where, 'S/');
    expect(r.refuse(testDrives, 1250000.5, 'm11')).toBe(
      'Pruebas de manejo, Nov 2026: debe ser un número entero',
    );
    expect(r.refuse(testDrives, 85, 'm11')).toBeNull();
    expect(r.refuse(billing, 14.005, 'm11')).toBe(
      'Facturación de vehículos nuevos, Nov 2026: admite como máximo 2 decimales',
    );
    expect(r.refuse(testDrives, -2, 'm11')).toBe('Pruebas de manejo, Nov 2026: no puede ser negativo');
    // A value Excel keeps as 1234.5599999999999 has two decimals.
    expect(r.refuse(billing, 1234.5599999999999, 'm11')).toBeNull();
  });

  it('warns (without refusing) beyond the plausible range, in the screen format', () => {
    const r = conceptRules<ConceptRule>((c) => c, where, 'S/');
    expect(r.warn(billing, 14, 'm11')).toBe(
      'Facturación de vehículos nuevos, Nov 2026: S/ 14.00 está fuera de lo habitual (entre S/ 10,000.00 y S/ 500,000,000.00)',
    );
    expect(r.warn(testDrives, 1250000, 'm11')).toBe(
      'Pruebas de manejo, Nov 2026: 1,250,000 está fuera de lo habitual (entre 0 y 5,000)',
    );
    expect(r.warn(billing, 3567250.5, 'm11')).toBeNull();
  });

  it('"Confirmar mes" says how many concepts are still empty', () => {
    expect(emptyConceptsText(['Pruebas de manejo', 'Reclamos recibidos'])).toBe(
      'Quedan 2 conceptos sin valor: Pruebas de manejo, Reclamos recibidos.',
    );
    expect(emptyConceptsText(['CSI ventas'])).toBe('Queda 1 concepto sin valor: CSI ventas.');
    expect(emptyConceptsText([])).toBe('Todos los conceptos tienen valor.');
  });
});
