/**
 * A text without its accents and tildes: 'Países' → 'Paises', 'Teléfono' → 'Telefono'. Headers
 * and seeded names compare through it, so files and rows written before the texts were spelled
 * with their accents still match.
 */
export const withoutAccents = (s: string): string => s.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
