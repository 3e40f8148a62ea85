// The demo network's figures: its zones, companies and sixteen dealers (where, which brands, how
// big), the names its people are drawn from, and how its sales spread over the demo months
// (demo.ts writes them).
import { limaWallClock } from '../core/lima';

export const ZONES = [
  { code: 'LIM', name: 'Zona Lima' },
  { code: 'NOR', name: 'Zona Norte' },
  { code: 'SUR', name: 'Zona Sur' },
];

export const COMPANIES = [
  { name: 'Grupo Automotriz Pacífico S.A.C.', ruc: '20512345671', email: 'contacto@pacifico.example.com' },
  { name: 'Inversiones Autonorte S.A.C.', ruc: '20481234562', email: 'contacto@autonorte.example.com' },
  { name: 'Corporación Andina de Autos S.A.', ruc: '20601234563', email: 'contacto@andina.example.com' },
];

interface DemoDealer {
  code: string;
  name: string;
  zone: string;
  company: number;
  /** INEI ubigeo code of the district. */
  district: string;
  address: string;
  phone: string;
}

export const DEALERS: DemoDealer[] = [
  {
    code: 'LIM01',
    name: 'Autoespar Miraflores',
    zone: 'LIM',
    company: 0,
    district: '150122',
    address: 'Av. José Larco 1150',
    phone: '014451200',
  },
  {
    code: 'LIM02',
    name: 'Motor Plaza San Isidro',
    zone: 'LIM',
    company: 0,
    district: '150131',
    address: 'Av. Javier Prado Este 450',
    phone: '014221800',
  },
  {
    code: 'LIM03',
    name: 'Autos del Sur Surco',
    zone: 'LIM',
    company: 0,
    district: '150140',
    address: 'Av. Caminos del Inca 2050',
    phone: '012734400',
  },
  {
    code: 'LIM04',
    name: 'Automotriz La Molina',
    zone: 'LIM',
    company: 2,
    district: '150114',
    address: 'Av. La Molina 1120',
    phone: '013485500',
  },
  {
    code: 'LIM05',
    name: 'Centro Motor San Borja',
    zone: 'LIM',
    company: 2,
    district: '150130',
    address: 'Av. San Luis 2480',
    phone: '012257700',
  },
  {
    code: 'LIM06',
    name: 'Lurigancho Autos',
    zone: 'LIM',
    company: 2,
    district: '150132',
    address: 'Av. Próceres de la Independencia 1730',
    phone: '013881900',
  },
  {
    code: 'CAL01',
    name: 'Callao Motors',
    zone: 'LIM',
    company: 0,
    district: '070101',
    address: 'Av. Sáenz Peña 890',
    phone: '014292300',
  },
  {
    code: 'TRU01',
    name: 'Autonorte Trujillo',
    zone: 'NOR',
    company: 1,
    district: '130101',
    address: 'Av. América Sur 1240',
    phone: '044281500',
  },
  {
    code: 'CHI01',
    name: 'Chiclayo Automotriz',
    zone: 'NOR',
    company: 1,
    district: '140101',
    address: 'Av. Luis Gonzales 1470',
    phone: '074231600',
  },
  {
    code: 'PIU01',
    name: 'Piura Motor',
    zone: 'NOR',
    company: 1,
    district: '200101',
    address: 'Av. Sánchez Cerro 1320',
    phone: '073307700',
  },
  {
    code: 'CAJ01',
    name: 'Cajamarca Autos',
    zone: 'NOR',
    company: 1,
    district: '060101',
    address: 'Jr. Amalia Puga 780',
    phone: '076365800',
  },
  {
    code: 'IQT01',
    name: 'Amazonia Motors',
    zone: 'NOR',
    company: 1,
    district: '160101',
    address: 'Av. Quiñones 2100',
    phone: '065261900',
  },
  {
    code: 'AQP01',
    name: 'Arequipa Motors',
    zone: 'SUR',
    company: 2,
    district: '040101',
    address: 'Av. Ejército 1010',
    phone: '054251100',
  },
  {
    code: 'AQP02',
    name: 'Autos Cayma',
    zone: 'SUR',
    company: 2,
    district: '040103',
    address: 'Av. Cayma 620',
    phone: '054272200',
  },
  {
    code: 'CUS01',
    name: 'Imperial Motors Cusco',
    zone: 'SUR',
    company: 2,
    district: '080101',
    address: 'Av. de la Cultura 1820',
    phone: '084223300',
  },
  {
    code: 'TAC01',
    name: 'Tacna Autos',
    zone: 'SUR',
    company: 2,
    district: '230101',
    address: 'Av. Bolognesi 1450',
    phone: '052414400',
  },
];

export const MODELS: Record<string, string[]> = {
  V: ['Gol', 'Polo', 'Virtus', 'T-Cross', 'Taos', 'Tiguan', 'Amarok'],
  N: ['Versa', 'Sentra', 'Kicks', 'X-Trail', 'Frontier'],
  S: ['Swift', 'Baleno', 'Vitara', 'Jimny', 'Ertiga'],
  A: ['A3', 'A4', 'Q3', 'Q5'],
};

export const FIRST = [
  'Carlos',
  'María',
  'José',
  'Lucía',
  'Jorge',
  'Rosa',
  'Luis',
  'Ana',
  'Miguel',
  'Carmen',
  'Pedro',
  'Elena',
  'Ricardo',
  'Patricia',
  'Víctor',
  'Sofía',
];
export const LAST = [
  'Quispe',
  'Flores',
  'Rodríguez',
  'Sánchez',
  'García',
  'Rojas',
  'Mendoza',
  'Torres',
  'Chávez',
  'Vargas',
  'Ramos',
  'Castillo',
  'Huamán',
  'Salazar',
  'Paredes',
  'Gutiérrez',
];
export const POSITIONS = [
  'Gerente general',
  'Jefe de ventas',
  'Asesor de ventas',
  'Asesor de ventas',
  'Jefe de taller',
];
export const CONTACTS = ['Gerente general', 'Jefe de postventa', 'Coordinador CEM'];
export const PAYMENTS = ['E', 'T', 'D', 'T', 'E', 'G'];
/** Sales: each dealer sells between 18 and 42 vehicles a year, more in the busy months. */
export const salesOf = (index: number) => Math.round(((18 + ((index * 7) % 25)) * demoMonthCount()) / 12);
/** Relative sales per calendar month (January first): July bonuses and December peak. */
const SEASON = [0.8, 0.8, 1, 0.9, 0.9, 1, 1.2, 1.1, 0.9, 1, 1.1, 1.4];
/** Each dealer's level of service (0 … 1): its spread of survey scores. */
export const serviceQuality = (index: number) => ((index * 37) % 16) / 15;

/**
 * The months of the demo: from January of last year to the current one, so every screen and the
 * dashboard can compare the year to date with the same months a year before.
 */
export const demoMonthCount = (now = limaWallClock()) => 13 + now.getUTCMonth();

/**
 * The date of a dealer's i-th sale of n over the demo months, spread by SEASON (the months are
 * weighed, then the sale falls on a day of its month); never in the last 3 days.
 */
export function saleDate(i: number, n: number, index: number): string {
  // Lima's wall clock: its UTC fields read Lima's date.
  const now = limaWallClock();
  const count = demoMonthCount(now);
  const months = Array.from({ length: count }, (_, k) => {
    const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - (count - 1) + k, 1));
    return { d, w: SEASON[d.getUTCMonth()] };
  });
  const total = months.reduce((a, m) => a + m.w, 0);
  const target = ((i + 0.5) / n) * total;
  let reached = 0;
  const month =
    months.find((m) => {
      reached += m.w;
      return reached > target;
    }) ?? months[months.length - 1];
  const day = 1 + ((index * 13 + i * 7) % 28);
  const date = new Date(Date.UTC(month.d.getUTCFullYear(), month.d.getUTCMonth(), day));
  const latest = now.getTime() - 3 * 86_400_000;
  return new Date(Math.min(date.getTime(), latest)).toISOString().slice(0, 10);
}
