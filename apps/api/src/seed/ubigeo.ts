// Reads Peru's ubigeo CSVs (apps/api/seed-data/ubigeo), found both from src/ and from dist/.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface UbigeoData {
  departments: { code: string; name: string }[];
  provinces: { code: string; department_code: string; name: string }[];
  districts: {
    code: string;
    province_code: string;
    name: string;
    latitude: number | null;
    longitude: number | null;
  }[];
}

export function ubigeoFolder(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  for (const candidate of [
    path.join(here, '../../seed-data/ubigeo'),
    path.join(here, '../seed-data/ubigeo'),
    path.join(here, 'seed-data/ubigeo'),
  ]) {
    if (existsSync(path.join(candidate, 'districts.csv'))) return candidate;
  }
  throw new Error('No se encontraron los archivos de ubigeo (seed-data/ubigeo)');
}

/** The files are plain comma-separated text without quotes (checked when they were copied). */
function readCsv(file: string): Record<string, string>[] {
  const lines = readFileSync(file, 'utf8').split(/\r?\n/).filter(Boolean);
  const header = lines[0].split(',');
  return lines.slice(1).map((line) => {
    const cells = line.split(',');
    if (cells.length !== header.length)
      throw new Error(`Línea mal formada en ${path.basename(file)}: ${line}`);
    return Object.fromEntries(header.map((h, i) => [h, cells[i].trim()]));
  });
}

const num = (v: string): number | null => {
  const n = Number(v);
  return v !== '' && Number.isFinite(n) ? n : null;
};

export function readUbigeo(folder = ubigeoFolder()): UbigeoData {
  return {
    departments: readCsv(path.join(folder, 'departments.csv')).map((r) => ({ code: r.code, name: r.name })),
    provinces: readCsv(path.join(folder, 'provinces.csv')).map((r) => ({
      code: r.code,
      department_code: r.department_code,
      name: r.name,
    })),
    districts: readCsv(path.join(folder, 'districts.csv')).map((r) => ({
      code: r.code,
      province_code: r.province_code,
      name: r.name,
      latitude: num(r.latitude),
      longitude: num(r.longitude),
    })),
  };
}
