// Documents and the extranet (issue 12): the category tree, the upload checked by content and
// size, documents published to every dealer or to chosen ones between their dates, the
// download (name, type, bytes; 404 to a dealer the document is not published to), the read
// marks per user, and the stored files (DATA_DIR/files, what the backup copies) swept when no
// document holds them.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { samplePdf, sampleXlsx } from '../src/modules/documents/documents.samples';
import { storedFileHashes } from '../src/ops/backup';
import { api, createDealerUser, createTestApp, login, type TestContext, testDay, uniq } from './harness';
import { multipart } from './sales-fixtures';

let t: TestContext;
let admin: string;
let dataDir: string;
let dealer1: Awaited<ReturnType<typeof createDealerUser>>;
let dealer2: Awaited<ReturnType<typeof createDealerUser>>;
let colleague1: string; // a second user of dealer 1
let parentCat: number;
let childCat: number;
let otherCat: number;

// Dates on the suite's clock (Lima's day, pinned: see harness testClockInstant).
const limaDay = (offsetDays = 0) => testDay(offsetDays);
const today = limaDay();
const yesterday = limaDay(-1);
const tomorrow = limaDay(1);

async function uploadFile(token: string, file: Buffer, filename: string) {
  const mp = multipart(file, filename);
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/documents/upload',
    headers: { ...mp.headers, authorization: `Bearer ${token}` },
    payload: mp.payload,
  });
  return { status: res.statusCode, body: res.json() };
}

async function uploadPdf(title = 'Circular', filename = `${title}.pdf`) {
  const r = await uploadFile(admin, samplePdf(title, ['Línea de prueba']), filename);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.result as { id: number; filename: string; mime: string; bytes: number };
}

async function createDocument(body: Record<string, unknown>) {
  const file = await uploadPdf(String(body.title ?? 'Doc'));
  const r = await api(t.app, 'POST', '/api/documents', {
    token: admin,
    body: { category_id: parentCat, published_at: yesterday, file_ids: [file.id], ...body },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return { id: r.body.result.id as number, fileId: file.id };
}

const countRows = async (table: string) =>
  Number((await t.handle.query<{ n: number }>(`select count(*)::int as n from ${table}`))[0].n);
const storedFiles = () => Object.keys(storedFileHashes(dataDir));
const listTitles = async (token: string, q = '') =>
  (await api(t.app, 'GET', `/api/documents?perPage=100${q}`, { token })).body.result.data.map(
    (d: { title: string }) => d.title,
  ) as string[];

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'documents-test-'));
  t = await createTestApp({ dataDir });
  admin = await login(t.app);
  dealer1 = await createDealerUser(t.app, admin);
  dealer2 = await createDealerUser(t.app, admin);
  const roles = await api(t.app, 'GET', '/api/roles?perPage=-1', { token: admin });
  const dealerRole = roles.body.result.find((r: { name: string }) => r.name === 'Concesionario');
  const username = uniq('col').toLowerCase();
  const u = await api(t.app, 'POST', '/api/users', {
    token: admin,
    body: {
      username,
      email: `${username}@example.com`,
      full_name: 'Colega del concesionario 1',
      password: 'Dealer-Pass-1',
      dealer_id: dealer1.dealerId,
      roles: [dealerRole.id],
    },
  });
  expect(u.status, JSON.stringify(u.body)).toBe(200);
  colleague1 = await login(t.app, username, 'Dealer-Pass-1');
  const cat = async (name: string, parent_id?: number) => {
    const r = await api(t.app, 'POST', '/api/categories', { token: admin, body: { name, parent_id } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.result.id as number;
  };
  parentCat = await cat(uniq('Posventa '));
  childCat = await cat(uniq('Manuales '), parentCat);
  otherCat = await cat(uniq('Marketing '));
}, 60_000);

afterAll(async () => {
  await t?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('categories: a tree', () => {
  it('a child shows its parent; a category cannot go inside itself or its own subcategory', async () => {
    const child = await api(t.app, 'GET', `/api/categories/get/${childCat}`, { token: admin });
    expect(child.body.result.parent_id).toBe(parentCat);
    expect(child.body.result.parent_name).toMatch(/^Posventa /);
    const loop = await api(t.app, 'PUT', `/api/categories/${parentCat}`, {
      token: admin,
      body: { parent_id: childCat },
    });
    expect(loop.status).toBe(422);
    expect(loop.body.error.validationErrors[0]).toEqual({
      field: 'parent_id',
      message: 'Una categoría no puede estar dentro de sí misma ni de una de sus subcategorías',
    });
    const self = await api(t.app, 'PUT', `/api/categories/${childCat}`, {
      token: admin,
      body: { parent_id: childCat },
    });
    expect(self.status).toBe(422);
    // A dealer user reads the tree (for the extranet) but does not change it.
    const tree = await api(t.app, 'GET', '/api/categories?perPage=-1', { token: dealer1.token });
    expect(tree.status).toBe(200);
    expect(tree.body.result.find((c: { id: number }) => c.id === childCat).parent_id).toBe(parentCat);
    expect(
      (await api(t.app, 'POST', '/api/categories', { token: dealer1.token, body: { name: 'X' } })).status,
    ).toBe(403);
  });
});

describe('POST /api/documents/upload: checked by content and size', () => {
  it('stores a real PDF under DATA_DIR/files (what the backup copies) and answers its id, name, type and size', async () => {
    const before = storedFiles().length;
    const pdf = samplePdf('Política comercial', ['Vigente desde enero']);
    const r = await uploadFile(admin, pdf, 'Política comercial 2026.pdf');
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.result).toMatchObject({
      filename: 'Política comercial 2026.pdf',
      mime: 'application/pdf',
      bytes: pdf.length,
      document_id: null,
    });
    const files = storedFiles();
    expect(files.length).toBe(before + 1);
    expect(files.every((f) => f.startsWith(`files${path.sep}documents${path.sep}`))).toBe(true);
    // The stored name is the server's, never the client's.
    expect(files.some((f) => f.includes('Política'))).toBe(false);
  });

  it('accepts a real .xlsx (Office content recognised inside the zip)', async () => {
    const xlsx = await sampleXlsx('Precios', ['Modelo', 'Precio'], [['Sedan', 18990]]);
    const r = await uploadFile(admin, xlsx, 'Lista de precios.xlsx');
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.result.mime).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
  });

  it('refuses an .exe renamed .pdf, with a Spanish message, and stores nothing', async () => {
    const rowsBefore = await countRows('document_files');
    const filesBefore = storedFiles().length;
    // A Windows executable: "MZ", the DOS stub, "PE\0\0" further on.
    const exe = Buffer.alloc(4096);
    exe.write('MZ', 0, 'latin1');
    exe.writeUInt32LE(0x80, 0x3c);
    exe.write('PE\0\0', 0x80, 'latin1');
    exe.write('This program cannot be run in DOS mode.', 0x4e, 'latin1');
    const r = await uploadFile(admin, exe, 'Manual de garantía.pdf');
    expect(r.status).toBe(400);
    expect(r.body.success).toBe(false);
    expect(r.body.error.message).toContain('programa ejecutable');
    expect(await countRows('document_files')).toBe(rowsBefore);
    expect(storedFiles().length).toBe(filesBefore);
  });

  it('refuses other content that is not an accepted type, a zip that is not Office, and a name that lies', async () => {
    const text = await uploadFile(admin, Buffer.from('hola, esto es texto plano\n'), 'nota.pdf');
    expect(text.status).toBe(400);
    expect(text.body.error.message).toBe(
      'Tipo de archivo no permitido: se aceptan PDF, Excel, Word, PowerPoint e imágenes PNG o JPG',
    );
    const script = await uploadFile(admin, Buffer.from('#!/bin/sh\nrm -rf /\n'), 'informe.pdf');
    expect(script.body.error.message).toContain('programa ejecutable');
    const pdfAsXlsx = await uploadFile(admin, samplePdf('x'), 'precios.xlsx');
    expect(pdfAsXlsx.status).toBe(400);
    expect(pdfAsXlsx.body.error.message).toBe(
      'El contenido del archivo es PDF pero su nombre termina en .xlsx: renómbrelo con la extensión correcta',
    );
    const empty = await uploadFile(admin, Buffer.alloc(0), 'vacio.pdf');
    expect(empty.status).toBe(400);
    expect(empty.body.error.message).toBe('El archivo está vacío');
  });

  it('refuses a file over 20 MB (413, Spanish) and keeps nothing of it', async () => {
    const filesBefore = storedFiles().length;
    const big = Buffer.concat([samplePdf('grande'), Buffer.alloc(20 * 1024 * 1024 + 10, 32)]);
    const r = await uploadFile(admin, big, 'grande.pdf');
    expect(r.status).toBe(413);
    expect(r.body.error.message).toBe('El archivo supera el tamaño máximo de 20 MB');
    expect(storedFiles().length).toBe(filesBefore);
  });

  it('a dealer user may not upload (403) nor publish a document (403)', async () => {
    const r = await uploadFile(dealer1.token, samplePdf('x'), 'x.pdf');
    expect(r.status).toBe(403);
    const file = await uploadPdf('Del fabricante');
    const doc = await api(t.app, 'POST', '/api/documents', {
      token: dealer1.token,
      body: { title: 'Mio', category_id: parentCat, published_at: today, file_ids: [file.id] },
    });
    expect(doc.status).toBe(403);
  });
});

describe('saving a document', () => {
  it('needs a title, a category, a publication date and at least one file; the dates in order; chosen dealers when not for all', async () => {
    const none = await api(t.app, 'POST', '/api/documents', { token: admin, body: {} });
    expect(none.status).toBe(422);
    const fields = none.body.error.validationErrors.map((e: { field: string; message: string }) => e.message);
    expect(fields).toEqual(
      expect.arrayContaining([
        'Título es obligatorio',
        'Categoría es obligatorio',
        'Fecha de publicación es obligatorio',
      ]),
    );
    const noFile = await api(t.app, 'POST', '/api/documents', {
      token: admin,
      body: { title: 'Sin archivo', category_id: parentCat, published_at: today },
    });
    expect(noFile.body.error.validationErrors).toEqual([
      { field: 'file_ids', message: 'Adjunte al menos un archivo' },
    ]);
    const file = await uploadPdf('Fechas');
    const dates = await api(t.app, 'POST', '/api/documents', {
      token: admin,
      body: {
        title: 'Fechas',
        category_id: parentCat,
        published_at: today,
        expires_at: yesterday,
        file_ids: [file.id],
      },
    });
    expect(dates.body.error.validationErrors).toEqual([
      {
        field: 'expires_at',
        message: 'La fecha de vencimiento debe ser igual o posterior a la fecha de publicación',
      },
    ]);
    const chosen = await api(t.app, 'POST', '/api/documents', {
      token: admin,
      body: {
        title: 'Elegidos',
        category_id: parentCat,
        published_at: today,
        all_dealers: false,
        file_ids: [file.id],
      },
    });
    expect(chosen.body.error.validationErrors[0].field).toBe('dealer_ids');
    // Nothing half-saved: the file is still free for the next try.
    const ok = await api(t.app, 'POST', '/api/documents', {
      token: admin,
      body: { title: 'Fechas bien', category_id: parentCat, published_at: today, file_ids: [file.id] },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.result.file_count).toBe(1);
  });

  it('a file attached to one document cannot be attached to another', async () => {
    const a = await createDocument({ title: uniq('Propio ') });
    const r = await api(t.app, 'POST', '/api/documents', {
      token: admin,
      body: { title: 'Ladron', category_id: parentCat, published_at: today, file_ids: [a.fileId] },
    });
    expect(r.status).toBe(422);
    expect(r.body.error.validationErrors[0].message).toContain('pertenece a otro documento');
  });
});

describe('the extranet a dealer sees', () => {
  const tag = uniq('EXT');
  let forAll: { id: number; fileId: number };
  let forDealer1: { id: number; fileId: number };
  let scheduled: { id: number; fileId: number };
  let expired: { id: number; fileId: number };
  let expiresToday: { id: number; fileId: number };
  let hidden: { id: number; fileId: number };
  let inChild: { id: number; fileId: number };

  beforeAll(async () => {
    forAll = await createDocument({ title: `${tag} Para todos`, published_at: limaDay(-10) });
    forDealer1 = await createDocument({
      title: `${tag} Solo concesionario 1`,
      published_at: limaDay(-3),
      all_dealers: false,
      dealer_ids: [dealer1.dealerId],
    });
    scheduled = await createDocument({ title: `${tag} Programado`, published_at: tomorrow });
    expired = await createDocument({
      title: `${tag} Vencido`,
      published_at: limaDay(-30),
      expires_at: yesterday,
    });
    expiresToday = await createDocument({
      title: `${tag} Vence hoy`,
      published_at: limaDay(-5),
      expires_at: today,
    });
    hidden = await createDocument({
      title: `${tag} Deshabilitado`,
      published_at: limaDay(-2),
      active: false,
    });
    inChild = await createDocument({
      title: `${tag} Manual de taller`,
      category_id: childCat,
      description: 'Procedimiento de cambio de aceite',
      published_at: limaDay(-1),
    });
  }, 60_000);

  it('lists only what is published to the dealer today, newest first', async () => {
    expect(await listTitles(dealer1.token, `&query=${tag}`)).toEqual([
      `${tag} Manual de taller`,
      `${tag} Solo concesionario 1`,
      `${tag} Vence hoy`,
      `${tag} Para todos`,
    ]);
    expect(await listTitles(dealer2.token, `&query=${tag}`)).toEqual([
      `${tag} Manual de taller`,
      `${tag} Vence hoy`,
      `${tag} Para todos`,
    ]);
    // The manufacturer sees its whole library, with each document's status.
    const all = await api(t.app, 'GET', `/api/documents?perPage=100&query=${tag}`, { token: admin });
    const status = Object.fromEntries(
      all.body.result.data.map((d: { title: string; status: string }) => [
        d.title.replace(`${tag} `, ''),
        d.status,
      ]),
    );
    expect(status).toEqual({
      Programado: 'scheduled',
      'Manual de taller': 'published',
      Deshabilitado: 'hidden',
      'Solo concesionario 1': 'published',
      'Vence hoy': 'published',
      'Para todos': 'published',
      Vencido: 'expired',
    });
    const chosen = all.body.result.data.find((d: { id: number }) => d.id === forDealer1.id);
    expect(chosen.dealer_ids).toEqual([dealer1.dealerId]);
    // A dealer is not told which other dealers a document went to.
    const mine = await api(t.app, 'GET', `/api/documents?perPage=100&query=${tag}`, { token: dealer1.token });
    expect(mine.body.result.data.find((d: { id: number }) => d.id === forDealer1.id).dealer_ids).toEqual([]);
  });

  it('filters by category (with its subcategories) and searches title, description and category', async () => {
    expect(await listTitles(dealer1.token, `&category=${childCat}&query=${tag}`)).toEqual([
      `${tag} Manual de taller`,
    ]);
    expect((await listTitles(dealer1.token, `&category=${parentCat}&query=${tag}`)).length).toBe(4);
    expect(await listTitles(dealer1.token, `&category=${otherCat}`)).toEqual([]);
    expect(await listTitles(dealer1.token, '&query=cambio de aceite')).toEqual([`${tag} Manual de taller`]);
    const bad = await api(t.app, 'GET', '/api/documents?category=abc', { token: dealer1.token });
    expect(bad.status).toBe(422);
  });

  it('a document not published to the dealer answers 404: get, download, read mark (other dealer, scheduled, expired, disabled)', async () => {
    const cases: [string, { id: number; fileId: number }][] = [
      [dealer2.token, forDealer1],
      [dealer1.token, scheduled],
      [dealer1.token, expired],
      [dealer1.token, hidden],
    ];
    for (const [token, doc] of cases) {
      expect((await api(t.app, 'GET', `/api/documents/get/${doc.id}`, { token })).status).toBe(404);
      const dl = await api(t.app, 'GET', `/api/documents/${doc.id}/files/${doc.fileId}`, { token });
      expect(dl.status).toBe(404);
      expect(dl.body.success).toBe(false);
      expect((await api(t.app, 'POST', `/api/documents/${doc.id}/read`, { token })).status).toBe(404);
    }
    // A file of another document through a visible one: 404 too.
    const cross = await api(t.app, 'GET', `/api/documents/${forAll.id}/files/${forDealer1.fileId}`, {
      token: dealer2.token,
    });
    expect(cross.status).toBe(404);
    // Dealer 1 gets its own.
    expect(
      (await api(t.app, 'GET', `/api/documents/get/${forDealer1.id}`, { token: dealer1.token })).status,
    ).toBe(200);
  });

  it('the download streams the bytes with the file name and type, and accepts the download token', async () => {
    const pdf = samplePdf('Boletín técnico', ['Revisión de frenos']);
    const up = await uploadFile(admin, pdf, 'Boletín técnico N°5.pdf');
    const doc = await api(t.app, 'POST', '/api/documents', {
      token: admin,
      body: {
        title: `${tag} Boletín`,
        category_id: childCat,
        published_at: today,
        file_ids: [up.body.result.id],
      },
    });
    const url = `/api/documents/${doc.body.result.id}/files/${up.body.result.id}`;
    const res = await api(t.app, 'GET', url, { token: dealer2.token });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="Boletin tecnico N5.pdf"; filename*=UTF-8''${encodeURIComponent('Boletín técnico N°5.pdf')}`,
    );
    expect(Number(res.headers['content-length'])).toBe(pdf.length);
    expect(res.raw.equals(pdf)).toBe(true);
    const inline = await api(t.app, 'GET', `${url}?inline=1`, { token: dealer2.token });
    expect(String(inline.headers['content-disposition'])).toMatch(/^inline; /);
    // A plain link (<a href>) carries a one-use download ticket for this file.
    const ticket = await api(t.app, 'POST', '/api/auth/download-ticket', {
      token: dealer2.token,
      body: { path: url },
    });
    const link = await t.app.inject({ method: 'GET', url: ticket.body.result.url });
    expect(link.statusCode).toBe(200);
    expect(link.rawPayload.equals(pdf)).toBe(true);
    expect((await api(t.app, 'GET', url)).status).toBe(401);
  });

  it('read marks are per user: unread until opened or downloaded', async () => {
    const page = async (token: string) =>
      (await api(t.app, 'GET', `/api/documents?perPage=100&query=${tag}`, { token })).body.result;
    const readOf = (p: { data: { id: number; read_at: string | null }[] }, id: number) =>
      p.data.find((d) => d.id === id)?.read_at;
    const mine = (p: { data: Record<string, unknown>[] }) => p.data[0];
    let p = await page(dealer1.token);
    expect(readOf(p, forAll.id)).toBeNull();
    const unreadBefore = p.unread as number;
    const catBefore = p.categories.find((c: { category_id: number }) => c.category_id === parentCat);
    // Downloading marks it read.
    expect(
      (
        await api(t.app, 'GET', `/api/documents/${forAll.id}/files/${forAll.fileId}`, {
          token: dealer1.token,
        })
      ).status,
    ).toBe(200);
    // Opening marks it read.
    const opened = await api(t.app, 'POST', `/api/documents/${forDealer1.id}/read`, { token: dealer1.token });
    expect(opened.status).toBe(200);
    p = await page(dealer1.token);
    expect(readOf(p, forAll.id)).toEqual(expect.any(String));
    expect(readOf(p, forDealer1.id)).toBe(opened.body.result.read_at);
    expect(readOf(p, expiresToday.id)).toBeNull();
    expect(p.unread).toBe(unreadBefore - 2);
    const catAfter = p.categories.find((c: { category_id: number }) => c.category_id === parentCat);
    expect(catAfter.unread).toBe(catBefore.unread - 2);
    expect(catAfter.count).toBe(catBefore.count);
    // The first time is kept.
    const again = await api(t.app, 'POST', `/api/documents/${forDealer1.id}/read`, { token: dealer1.token });
    expect(again.body.result.read_at).toBe(opened.body.result.read_at);
    // A colleague of the same dealer has not read them.
    const c = await page(colleague1);
    expect(readOf(c, forAll.id)).toBeNull();
    expect(readOf(c, forDealer1.id)).toBeNull();
    expect(c.unread).toBe(unreadBefore);
    expect(readOf(await page(dealer2.token), forAll.id)).toBeNull();
    // The manufacturer sees how many dealer users opened each one (its own reads do not count).
    await api(t.app, 'POST', `/api/documents/${forAll.id}/read`, { token: admin });
    const m = (await api(t.app, 'GET', `/api/documents?perPage=100&query=${tag}`, { token: admin })).body
      .result;
    const readersOf = (id: number) => m.data.find((d: { id: number }) => d.id === id).readers;
    expect(readersOf(forAll.id)).toBe(1);
    expect(readersOf(forDealer1.id)).toBe(1);
    expect(readersOf(expiresToday.id)).toBe(0);
    expect(mine(await page(dealer1.token))).not.toHaveProperty('readers');
    void inChild;
  });
});

describe('files replaced or left behind', () => {
  it('an edit replaces the files; the ones no document holds are removed from the storage after a day', async () => {
    const doc = await createDocument({ title: uniq('Reemplazo ') });
    const first = await api(t.app, 'GET', `/api/documents/get/${doc.id}`, { token: admin });
    expect(first.body.result.files.map((f: { id: number }) => f.id)).toEqual([doc.fileId]);
    const next = await uploadPdf('Versión 2', 'versión 2.pdf');
    const abandoned = await uploadPdf('Abandonado', 'abandonado.pdf');
    const put = await api(t.app, 'PUT', `/api/documents/${doc.id}`, {
      token: admin,
      body: { file_ids: [next.id] },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const after = await api(t.app, 'GET', `/api/documents/get/${doc.id}`, { token: admin });
    expect(after.body.result.files.map((f: { filename: string }) => f.filename)).toEqual(['versión 2.pdf']);
    const keys = await t.handle.query<{ id: number; storage_key: string }>(
      'select id, storage_key from document_files where id = any($1::int[])',
      [[doc.fileId, abandoned.id, next.id]],
    );
    const keyOf = (id: number) => keys.find((k) => k.id === id)!.storage_key;
    const stored = () => new Set(storedFiles().map((f) => f.split(path.sep).slice(1).join('/')));
    expect(stored().has(keyOf(doc.fileId))).toBe(true);
    // A day later the next upload sweeps the replaced and the abandoned file, not the attached one.
    await t.handle.query(
      `update document_files set created_at = now() - interval '25 hours' where id = any($1::int[])`,
      [[doc.fileId, abandoned.id, next.id]],
    );
    await uploadPdf('Otro');
    expect(stored().has(keyOf(doc.fileId))).toBe(false);
    expect(stored().has(keyOf(abandoned.id))).toBe(false);
    expect(stored().has(keyOf(next.id))).toBe(true);
    expect(await countRows(`document_files where id in (${doc.fileId}, ${abandoned.id})`)).toBe(0);
    // Deleting the document leaves its files unattached (swept the same way).
    expect((await api(t.app, 'DELETE', `/api/documents/${doc.id}`, { token: admin })).status).toBe(200);
    const [row] = await t.handle.query<{ document_id: number | null }>(
      'select document_id from document_files where id = $1',
      [next.id],
    );
    expect(row.document_id).toBeNull();
  });

  it('the storage folder is DATA_DIR/files, which npm run backup copies with the database', () => {
    expect(readdirSync(dataDir)).toContain('files');
  });
});
