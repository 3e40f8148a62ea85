// The import graph of web, api and contracts (scripts/import-graph.mjs reads it from the import
// statements): no new circle, no new import from a layer above (web: app over modules and pages,
// over shell, over resources, over fields and sheet, over lib and session; api: main, then
// bootstrap/app/ops, seed, modules, core, db, config, lib), no source outside a layer, no new export
// that nothing uses. BASELINE lists what was there when the test came; it may only shrink: an
// entry that no longer occurs fails too, so that fixing one also takes it off the list.
// `node scripts/import-graph.mjs` prints every finding.
import { describe, expect, it } from 'vitest';
import { analyse } from '../../../scripts/import-graph.mjs';

const BASELINE: Record<string, string[]> = {
  circles: [
    'packages/contracts/src/dispatches.ts packages/contracts/src/figures.ts packages/contracts/src/permissions.ts packages/contracts/src/quiz.ts packages/contracts/src/resources/agreements.ts packages/contracts/src/resources/brands.ts packages/contracts/src/resources/catalogues.ts packages/contracts/src/resources/documents.ts packages/contracts/src/resources/fields.ts packages/contracts/src/resources/geography.ts packages/contracts/src/resources/index.ts packages/contracts/src/resources/organisation.ts packages/contracts/src/resources/preferences.ts packages/contracts/src/resources/security.ts packages/contracts/src/resources/workshop.ts packages/contracts/src/sales.ts',
  ],
  // None left: a module folder that needs one above it takes a hook it declares (sales'
  // guardSaleDelete, figures' onMonthConfirmed, mail's onMailSent) instead of importing it.
  folderCircles: [],
  upward: [],
  unplaced: [],
  dead: [],
};

const found = analyse();
const now: Record<string, string[]> = {
  circles: Object.values(found.circles)
    .flat()
    .map((c) => c.join(' ')),
  folderCircles: found.folderCircles.map((c) => c.join(' ')),
  upward: found.upward,
  unplaced: found.unplaced,
  dead: found.deadExports.dead,
};

describe('import graph', () => {
  for (const key of Object.keys(BASELINE)) {
    it(`${key}: nothing new`, () => {
      expect(now[key].filter((x) => !BASELINE[key].includes(x))).toEqual([]);
    });
    it(`${key}: what was fixed is off the baseline`, () => {
      expect(BASELINE[key].filter((x) => !now[key].includes(x))).toEqual([]);
    });
  }
});
