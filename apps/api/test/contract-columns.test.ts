// The contracts against the tables and the declarations: a field may never accept more text
// than its column holds (PostgreSQL would answer "value too long" with a 500 instead of the
// Spanish message of the rule), and what the contract tells the screens (sort, search, filter,
// columns, references) is what the server does.
import {
  auditLogContract,
  baseRule,
  RESOURCE_CONTRACTS,
  type ResourceContract,
  ruleInfo,
} from '@app/contracts';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { allResources } from '../src/core/registry';
import type { Resource } from '../src/core/resource';
import { API_MODULES } from '../src/modules';

const contracts: Record<string, ResourceContract> = {
  ...(RESOURCE_CONTRACTS as Record<string, ResourceContract>),
  [auditLogContract.path]: auditLogContract,
};
const resources = allResources(API_MODULES);
const declared = resources.filter((r) => contracts[r.path]).map((r) => ({ r, c: contracts[r.path] })) as {
  r: Resource;
  c: ResourceContract;
}[];

/** The varchar length of a column, or undefined for text and non-text columns. */
const varcharLength = (col: PgColumn | undefined): number | undefined =>
  col?.columnType === 'PgVarchar' ? (col as unknown as { length?: number }).length : undefined;

/** The longest text a rule accepts: its max, every value of an enum, or unbounded. */
function longestText(rule: Parameters<typeof ruleInfo>[0]): number | 'unbounded' | undefined {
  const info = ruleInfo(rule);
  if (info.kind === 'string') return info.maxLength ?? 'unbounded';
  if (info.kind === 'enum') return Math.max(...(info.values ?? []).map((v) => v.length));
  return undefined;
}

describe('contracts against tables', () => {
  it('every contract of the client is served by a declared resource', () => {
    const served = new Set(resources.map((r) => r.path));
    expect(Object.keys(contracts).filter((p) => !served.has(p))).toEqual([]);
  });

  it('no field accepts longer text than its varchar column holds', () => {
    const problems: string[] = [];
    let checked = 0;
    for (const { r, c } of declared) {
      for (const [name, spec] of Object.entries(c.fields)) {
        if (!spec.rule) continue;
        const length = varcharLength(r.columns[name]);
        if (length === undefined) continue;
        const longest = longestText(spec.rule);
        if (longest === undefined) continue;
        checked++;
        if (longest === 'unbounded' || longest > length)
          problems.push(`${r.path}.${name}: la regla admite ${longest}, la columna varchar(${length})`);
      }
    }
    expect(problems).toEqual([]);
    // The check reads the rules (a zod change that hid every max would pass silently).
    expect(checked).toBeGreaterThan(80);
  });

  it('the maximum is read through optional, nullable and preprocessed rules', () => {
    const { rule } = contracts.zones.fields.code;
    expect(ruleInfo(rule!)).toMatchObject({ kind: 'string', maxLength: 20, required: false });
    expect(ruleInfo(contracts.zones.fields.name.rule!)).toMatchObject({ maxLength: 120, required: true });
    expect(ruleInfo(baseRule(contracts.sales.fields.vin.rule!)).maxLength).toBe(17);
  });

  it('what a contract says the list does, the server does', () => {
    const problems: string[] = [];
    for (const { r, c } of declared) {
      for (const [name, spec] of Object.entries(c.fields)) {
        const at = `${r.path}.${name}`;
        if (spec.sort && !r.sortable.includes(name)) problems.push(`${at}: no se ordena en el servidor`);
        if (spec.search && !r.searchable.includes(name)) problems.push(`${at}: no se busca en el servidor`);
        if (spec.filter && !r.filters?.includes(name)) problems.push(`${at}: no se filtra en el servidor`);
        if (spec.column && !r.answered.includes(name))
          problems.push(`${at}: columna que el servidor no responde`);
        if (spec.rule && !(name in r.columns) && !r.hooks) problems.push(`${at}: campo sin columna ni hook`);
        if (spec.ref && !contracts[spec.ref] && !resources.some((x) => x.path === spec.ref))
          problems.push(`${at}: referencia a ${spec.ref}, que no es un recurso`);
        if (spec.within && !c.fields[spec.within])
          problems.push(`${at}: within ${spec.within} no es un campo`);
      }
    }
    expect(problems).toEqual([]);
  });
});
