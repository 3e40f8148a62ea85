// Spanish names of tables and columns, used to word database errors (409 in use,
// 409 duplicate, 422 unknown reference). Resources register theirs on declaration.
import { QUERY_LABELS } from '@app/contracts';

const tableTitles = new Map<string, string>([
  ['user_roles', 'Usuarios'],
  ['role_permissions', 'Roles'],
  ['audit_logs', 'Auditoría'],
]);
const columnLabels = new Map<string, Map<string, string>>();

export function registerTableLabels(table: string, title: string, labels: Record<string, string>): void {
  if (!tableTitles.has(table) || table === 'user_roles') tableTitles.set(table, title);
  const cols = columnLabels.get(table) ?? new Map<string, string>();
  for (const [k, v] of Object.entries(labels)) if (!cols.has(k)) cols.set(k, v);
  columnLabels.set(table, cols);
}

export function tableTitle(table: string): string {
  return tableTitles.get(table) ?? table.replace(/_/g, ' ');
}

const GENERIC_COLUMNS: Record<string, string> = {
  name: 'Nombre',
  code: 'Código',
  email: 'Email',
  username: 'Usuario',
  key: 'Clave',
  dealer_id: QUERY_LABELS.dealer,
  zone_id: 'Zona',
  role_id: 'Rol',
  permission_id: 'Permiso',
  user_id: 'Usuario',
  manufacturer_id: 'Marca',
  company_id: 'Empresa',
  department_id: 'Departamento',
  province_id: 'Provincia',
  district_id: 'Distrito',
  general_type_id: 'Tipo general',
};

export function columnLabel(table: string | undefined, column: string): string {
  return (table && columnLabels.get(table)?.get(column)) ?? GENERIC_COLUMNS[column] ?? column;
}
