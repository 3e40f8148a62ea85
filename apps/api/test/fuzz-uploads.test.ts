// Fuzzing the uploads read from /api/docs: every operation whose request body is
// multipart/form-data gets fast-check files (empty, wrong type, a truncated .xlsx, random bytes
// behind a zip header, huge names and fields) from the administrator and a dealer user. Never a
// 5xx; always the envelope; an error's message is Spanish and shows no stack, SQL or path.
// FUZZ_UPLOAD_RUNS per upload (default 12), FUZZ_SEED printed.
import ExcelJS from 'exceljs';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { answerProblems } from './fuzz/check';
import { api, createDealerUser, createTestApp, login, type TestContext } from './harness';

const RUNS = Number(process.env.FUZZ_UPLOAD_RUNS ?? 12);
const SEED = Number(process.env.FUZZ_SEED ?? 20261202);

let t: TestContext;
let tokens: Record<string, string>;
let uploads: string[];
let xlsx: Buffer;
beforeAll(async () => {
  t = await createTestApp();
  const admin = await login(t.app);
  tokens = { admin, dealer: (await createDealerUser(t.app, admin)).token };
  const doc = (await api(t.app, 'GET', '/api/docs/json')).body as unknown as {
    paths: Record<string, Record<string, { requestBody?: { content?: Record<string, unknown> } }>>;
  };
  uploads = Object.entries(doc.paths)
    .filter(([, item]) => item.post?.requestBody?.content?.['multipart/form-data'])
    .map(([path]) => path);
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Hoja1');
  ws.addRow(['Concesionario', 'Fecha', 'VIN']);
  for (let i = 0; i < 50; i++) ws.addRow([`D${i}`, '2026-01-01', `VIN${i}`.padEnd(17, 'X')]);
  xlsx = Buffer.from(await wb.xlsx.writeBuffer());
});
afterAll(() => t?.close());

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const fileArb = fc.oneof(
  fc.constant({ kind: 'vacío', bytes: Buffer.alloc(0), name: 'vacio.xlsx', type: XLSX }),
  fc.constant({
    kind: 'texto como xlsx',
    bytes: Buffer.from('Concesionario,Fecha\nD1,2026'),
    name: 'a.xlsx',
    type: XLSX,
  }),
  fc.integer({ min: 30, max: 4000 }).map((n) => ({
    kind: 'xlsx truncado',
    bytes: () => xlsx.subarray(0, n),
    name: 'corto.xlsx',
    type: XLSX,
  })),
  fc.uint8Array({ maxLength: 3000 }).map((b) => ({
    kind: 'zip basura',
    bytes: Buffer.from([0x50, 0x4b, 0x03, 0x04, ...b]),
    name: 'z.xlsx',
    type: XLSX,
  })),
  fc.constant({
    kind: 'exe',
    bytes: Buffer.from('MZ\x90\x00\x03'),
    name: 'virus.exe',
    type: 'application/x-msdownload',
  }),
  fc.constant({ kind: 'xlsx válido, tipo pdf', bytes: () => xlsx, name: 'doc.pdf', type: 'application/pdf' }),
  fc
    .string({ minLength: 1, maxLength: 30 })
    .map((s) => ({ kind: 'nombre enorme', bytes: () => xlsx, name: `${s.repeat(400)}.xlsx`, type: XLSX })),
);

type FileCase = { kind: string; bytes: Buffer | (() => Buffer); name: string; type: string };

function multipart(file: FileCase, field: string, extra: string): { body: Buffer; type: string } {
  const boundary = 'fuzzUploads9x8y7z';
  const bytes = typeof file.bytes === 'function' ? file.bytes() : file.bytes;
  const name = file.name.replace(/["\r\n]/g, '_');
  return {
    type: `multipart/form-data; boundary=${boundary}`,
    body: Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="nota"\r\n\r\n${extra}\r\n`),
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${name}"\r\nContent-Type: ${file.type}\r\n\r\n`,
      ),
      bytes,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
  };
}

/** English words an error message should not carry (a framework's text that escaped). */
const ENGLISH = /\b(the|is not|invalid|failed|cannot|unexpected|must be|error:)\b/i;

it('reads the 7 uploads from /api/docs', () => {
  expect(uploads).toHaveLength(7);
});

it(`${RUNS} hostile files per upload and caller: never a 5xx, always the envelope in Spanish`, async () => {
  console.log(
    `FUZZ-SUBIDAS semilla ${SEED}, ${RUNS} corridas por subida y usuario, ${uploads.length} subidas`,
  );
  const statuses: Record<number, number> = {};
  const problems: string[] = [];
  const reached = new Set<string>();
  let sent = 0;
  for (const [i, path] of uploads.entries()) {
    for (const who of ['admin', 'dealer']) {
      await fc.assert(
        fc.asyncProperty(
          fileArb,
          fc.constantFrom('file', 'archivo', 'x'),
          fc.oneof(
            fc.constant(''),
            fc.string({ maxLength: 20 }).map((s) => s.repeat(5000)),
          ),
          async (file, field, extra) => {
            const { body, type } = multipart(file, field, extra);
            const res = await t.app.inject({
              method: 'POST',
              url: path,
              headers: { authorization: `Bearer ${tokens[who]}`, 'content-type': type },
              payload: body,
            });
            sent++;
            statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
            if (res.statusCode !== 401 && res.statusCode !== 403 && res.statusCode !== 429) reached.add(path);
            const found = answerProblems(
              {
                status: res.statusCode,
                contentType: String(res.headers['content-type'] ?? ''),
                body: res.body,
              },
              [file.name, field, extra],
            );
            let message = '';
            try {
              message = String(JSON.parse(res.body)?.error?.message ?? '');
            } catch {}
            if (res.statusCode >= 400 && ENGLISH.test(message)) found.push(`mensaje no español: ${message}`);
            if (res.statusCode >= 400 && !message) found.push('error sin mensaje');
            for (const p of found) problems.push(`${who} ${path} (${file.kind}): ${p}`);
            return found.length === 0;
          },
        ),
        { numRuns: RUNS, seed: SEED + i, endOnFailure: true },
      );
    }
  }
  console.log(
    `FUZZ-SUBIDAS ${sent} solicitudes; estados: ${Object.entries(statuses)
      .map(([s, n]) => `${s}×${n}`)
      .join(' ')}; subidas alcanzadas (más allá de 401/403/429): ${reached.size} de ${uploads.length}`,
  );
  expect(problems).toEqual([]);
  expect(Object.keys(statuses).filter((s) => Number(s) >= 500)).toEqual([]);
});
