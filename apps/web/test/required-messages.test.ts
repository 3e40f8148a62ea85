// SPEC §5 (issue 16): an empty required field always says '{field} es obligatorio', whatever its
// kind (text, reference, fixed list, date, number), for every contract's dialog.
import { messages, RESOURCE_CONTRACTS, ruleInfo } from '@app/contracts';
import { describe, expect, it } from 'vitest';

const contracts = Object.values(RESOURCE_CONTRACTS) as unknown as {
  path: string;
  fields: Record<string, { label: string; rule?: import('zod').ZodType }>;
}[];

describe('required fields', () => {
  it("an empty required field says '{label} es obligatorio' ('' , null or absent)", () => {
    const wrong: string[] = [];
    let checked = 0;
    for (const c of contracts) {
      for (const [name, spec] of Object.entries(c.fields)) {
        if (!spec.rule || !ruleInfo(spec.rule).required) continue;
        checked++;
        for (const empty of ['', null, undefined]) {
          const r = spec.rule.safeParse(empty);
          const message = r.success ? '(aceptado)' : r.error.issues[0]?.message;
          if (message !== messages.required(spec.label))
            wrong.push(`${c.path}.${name} (${JSON.stringify(empty) ?? 'ausente'}): ${message}`);
        }
      }
    }
    expect(checked).toBeGreaterThan(40);
    expect(wrong).toEqual([]);
  });
});
