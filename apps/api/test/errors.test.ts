// The error catalogue (SPEC §8): every class answers the envelope with a Spanish message.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createTestApp, login, type TestContext } from './harness';

let t: TestContext;
let admin: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = await login(t.app);
});
afterAll(() => t?.close());

describe('error catalogue', () => {
  it('400 for malformed JSON', async () => {
    const res = await api(t.app, 'POST', '/api/zones', { token: admin, rawBody: '{"name": "Zona' });
    expect(res.status).toBe(400);
    expect(res.body.success).toBe(false);
    expect(res.body.error.code).toBe(400);
    expect(res.body.error.message).toBe('El cuerpo de la solicitud no es un JSON válido');
  });

  it('takes an empty JSON body as no body', async () => {
    const zone = await api(t.app, 'POST', '/api/zones', { token: admin, body: { name: 'Zona Vacía' } });
    const del = await api(t.app, 'DELETE', `/api/zones/${zone.body.result.id}`, {
      token: admin,
      rawBody: '',
    });
    expect(del.status).toBe(200);
    const post = await api(t.app, 'POST', '/api/zones', { token: admin, rawBody: '' });
    expect(post.status).toBe(422);
    expect(post.body.error.validationErrors).toContainEqual({
      field: '',
      message: 'Se esperaba un objeto JSON en el cuerpo de la solicitud',
    });
  });

  it('413 for an oversize body', async () => {
    const res = await api(t.app, 'POST', '/api/zones', {
      token: admin,
      rawBody: JSON.stringify({ name: 'x'.repeat(3 * 1024 * 1024) }),
    });
    expect(res.status).toBe(413);
    expect(res.body.error.message).toBe('El contenido enviado es demasiado grande');
  });

  it('422 with one message per field for wrong types, and nothing saved', async () => {
    const before = await api(t.app, 'GET', '/api/dealers', { token: admin });
    const res = await api(t.app, 'POST', '/api/dealers', {
      token: admin,
      body: { code: 123, name: '', zone_id: 'uno', email: 'x' },
    });
    expect(res.status).toBe(422);
    expect(res.body.error.validationErrors).toEqual(
      expect.arrayContaining([
        { field: 'code', message: 'Código no es válido' },
        { field: 'name', message: 'Nombre es obligatorio' },
        { field: 'zone_id', message: 'Zona no es válido' },
        { field: 'email', message: 'Debe ser un Email válido.' },
      ]),
    );
    const after = await api(t.app, 'GET', '/api/dealers', { token: admin });
    expect(after.body.result.total).toBe(before.body.result.total);
    const arr = await api(t.app, 'POST', '/api/zones', { token: admin, body: [1, 2] });
    expect(arr.status).toBe(422);
  });

  it('422 naming the field for a reference to a record that does not exist', async () => {
    const res = await api(t.app, 'POST', '/api/dealers', {
      token: admin,
      body: { code: 'FK1', name: 'Dealer', zone_id: 999999 },
    });
    expect(res.status).toBe(422);
    expect(res.body.error.validationErrors).toEqual([{ field: 'zone_id', message: 'Zona no existe' }]);
  });

  it('404 for an unknown route, in the envelope', async () => {
    const res = await api(t.app, 'GET', '/api/no-existe', { token: admin });
    expect(res.status).toBe(404);
    expect(res.body.success).toBe(false);
    expect(res.body.error.code).toBe(404);
  });

  it('409 naming the field for a duplicate value', async () => {
    const first = await api(t.app, 'POST', '/api/zones', { token: admin, body: { name: 'Zona Norte Dup' } });
    expect(first.status).toBe(200);
    const dup = await api(t.app, 'POST', '/api/zones', { token: admin, body: { name: 'Zona Norte Dup' } });
    expect(dup.status).toBe(409);
    expect(dup.body.error.message).toBe('El valor de Nombre ya existe');
    const model = { manufacturer_id: 1, name: 'Modelo Dup' };
    expect((await api(t.app, 'POST', '/api/manufacturer-models', { token: admin, body: model })).status).toBe(
      200,
    );
    const dup2 = await api(t.app, 'POST', '/api/manufacturer-models', { token: admin, body: model });
    expect(dup2.status).toBe(409);
    expect(dup2.body.error.message).toBe('Ya existe un registro con el mismo Marca y Nombre');
  });

  it('409 saying what uses a record that cannot be deleted', async () => {
    const zone = await api(t.app, 'POST', '/api/zones', { token: admin, body: { name: 'Zona En Uso' } });
    const dealer = await api(t.app, 'POST', '/api/dealers', {
      token: admin,
      body: { code: 'INUSE1', name: 'Dealer en uso', zone_id: zone.body.result.id },
    });
    expect(dealer.body.result.zone_name).toBe('Zona En Uso');
    const res = await api(t.app, 'DELETE', `/api/zones/${zone.body.result.id}`, { token: admin });
    expect(res.status).toBe(409);
    expect(res.body.error.message).toBe('No se puede eliminar: el registro está en uso en Concesionarios');
    expect((await api(t.app, 'GET', `/api/zones/get/${zone.body.result.id}`, { token: admin })).status).toBe(
      200,
    );
    const dep = await api(t.app, 'DELETE', '/api/departments/15', { token: admin });
    expect(dep.status).toBe(409);
    expect(dep.body.error.message).toBe('No se puede eliminar: el registro está en uso en Provincias');
  });

  it('401 and 403 in the envelope', async () => {
    const res = await api(t.app, 'GET', '/api/users');
    expect(res.status).toBe(401);
    expect(res.body.result).toBeNull();
    await api(t.app, 'POST', '/api/users', {
      token: admin,
      body: { username: 'vacio', email: 'vacio@example.com', full_name: 'Vacío', password: 'Vacio-123' },
    });
    const token = await login(t.app, 'vacio', 'Vacio-123');
    const denied = await api(t.app, 'DELETE', '/api/zones/1', { token });
    expect(denied.status).toBe(403);
    expect(denied.body.error.message).toBe('No tiene permiso para eliminar Zonas');
  });

  it('422 for bad list parameters (page, order, filter)', async () => {
    for (const q of [
      'page=0',
      'page=abc',
      'order=sideways',
      'filter[active]=quizas',
      'filter[secret]=1',
      'filter={bad',
    ]) {
      const res = await api(t.app, 'GET', `/api/zones?${q}`, { token: admin });
      expect(res.status, q).toBe(422);
    }
  });

  it('422, not 500, for text the database cannot store (NUL character)', async () => {
    const res = await api(t.app, 'POST', '/api/zones', { token: admin, body: { name: 'Zona \u0000 nula' } });
    expect(res.status).toBe(422);
    expect(res.body.success).toBe(false);
    const search = await api(t.app, 'GET', `/api/zones?query=${encodeURIComponent('a\u0000b')}`, {
      token: admin,
    });
    expect(search.status).toBe(422);
  });

  it('escapes % and _ in searches', async () => {
    await api(t.app, 'POST', '/api/zones', { token: admin, body: { name: 'Zona 100% Sur' } });
    const pct = await api(t.app, 'GET', `/api/zones?query=${encodeURIComponent('100%')}`, { token: admin });
    expect(pct.body.result.data.map((z: { name: string }) => z.name)).toEqual(['Zona 100% Sur']);
    const us = await api(t.app, 'GET', '/api/zones?query=_', { token: admin });
    expect(us.body.result.total).toBe(0);
  });
});
