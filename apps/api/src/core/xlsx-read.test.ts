// The read budget of an uploaded workbook counts the time spent reading it, not the time the
// process spent on other clients' work: PGlite runs queries on the event loop's thread, so under
// write load the loop is held most of the time, and a valid file must still be read.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { saleRow, salesWorkbook, vinFactory } from '../../test/sales-fixtures';
import { IMPORT_XLSX_LIMITS as SALES_XLSX_LIMITS } from './import-template';
import { checkXlsxArchive, readSheetRows, XLSX_CHECK_BUDGET_MS } from './xlsx-read';

const dir = mkdtempSync(path.join(tmpdir(), 'xlsx-read-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Holds the event loop `ms` at a time, again and again, as other clients' queries do. */
function busyNeighbour(ms: number): { stop(): void; turns: () => number } {
  let turns = 0;
  const timer = setInterval(() => {
    turns++;
    const until = performance.now() + ms;
    while (performance.now() < until) {}
  }, 1);
  return { stop: () => clearInterval(timer), turns: () => turns };
}

it('a valid 400-row file is checked and read while the process is held by others for over 10 s', async () => {
  const vin = vinFactory();
  const file = path.join(dir, 'ventas.xlsx');
  const buffer = await salesWorkbook(Array.from({ length: 400 }, () => saleRow('D001', vin())));
  writeFileSync(file, buffer);
  const neighbour = busyNeighbour(200);
  const t0 = performance.now();
  let rows = 0;
  try {
    await checkXlsxArchive(file, buffer.length, SALES_XLSX_LIMITS);
    const checkedAt = performance.now() - t0;
    console.log(
      `XLSX revision de 400 filas: ${Math.round(checkedAt)} ms de reloj, ${neighbour.turns()} turnos ajenos`,
    );
    // It did wait: longer than the check's 10 s budget on the wall clock.
    expect(checkedAt).toBeGreaterThan(XLSX_CHECK_BUDGET_MS);
  } finally {
    neighbour.stop();
  }
  const busy = busyNeighbour(200);
  try {
    for await (const _ of readSheetRows(file, { ...SALES_XLSX_LIMITS, readBudgetMs: 10_000 })) rows++;
  } finally {
    busy.stop();
  }
  expect(rows).toBe(401);
}, 120_000);
