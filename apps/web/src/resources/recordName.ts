// How a question names a record (the delete confirmation): as the list shows it, by the values
// the list searches by (code and name, invoice and buyer, user name and full name), never by id.
import type { ResourceContract } from '@app/contracts';
import type { ColumnDef } from './types';

const shown = (v: unknown) => (v === null || v === undefined ? '' : String(v).trim());

export function recordName(
  contract: Pick<ResourceContract, 'fields'>,
  columns: Pick<ColumnDef, 'field'>[],
  row: Record<string, unknown>,
): string {
  const fields = contract.fields;
  const searched = columns
    .filter((c) => Object.hasOwn(fields, c.field) && fields[c.field].search)
    .map((c) => shown(row[c.field]))
    .filter(Boolean);
  if (searched.length) return searched.slice(0, 2).join(' - ');
  for (const key of ['name', 'full_name', 'title', 'code', 'username'])
    if (shown(row[key])) return shown(row[key]);
  // The first text the list shows, else the id.
  const text = columns.map((c) => row[c.field]).find((v) => typeof v === 'string' && v.trim());
  return text ? shown(text) : `#${shown(row.id)}`;
}
