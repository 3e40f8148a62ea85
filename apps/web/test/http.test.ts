// The one HTTP client: headers, envelope, the SPEC §8 catalogue, files, 401 and 403.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { errorText, HttpError, request, setHttpHooks } from '../src/lib/http';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('errorText (SPEC §8)', () => {
  it('message plus details', () => {
    expect(errorText({ error: { code: 400, message: 'No válido', details: 'campo x' } })).toBe(
      'No válido\ncampo x',
    );
  });
  it('validation errors one per line', () => {
    expect(
      errorText({
        error: {
          code: 422,
          message: 'Datos no válidos',
          validationErrors: [
            { field: 'name', message: 'Nombre es obligatorio' },
            { field: 'email', message: 'Debe ser un Email válido.' },
          ],
        },
      }),
    ).toBe('Nombre es obligatorio\nDebe ser un Email válido.');
  });
  it('message alone, the data message, the generic text', () => {
    expect(errorText({ error: { code: 409, message: 'El valor de Nombre ya existe' } })).toBe(
      'El valor de Nombre ya existe',
    );
    expect(errorText({ message: 'Bad gateway' })).toBe('Bad gateway');
    expect(errorText({})).toBe('Ocurrió un error al procesar la solicitud');
    expect(errorText(null)).toBe('Ocurrió un error al procesar la solicitud');
  });
});

describe('request', () => {
  const toast = vi.fn();
  const unauthorized = vi.fn();
  const forbidden = vi.fn();
  beforeEach(() => {
    setHttpHooks({ toast, unauthorized, forbidden });
    // biome-ignore lint/suspicious/noDocumentCookie: the client reads the token cookie
    document.cookie = 'AuthToken=tok123; path=/';
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    toast.mockReset();
    unauthorized.mockReset();
    forbidden.mockReset();
  });

  it('sends the Bearer token and X-Requested-With and unwraps the result', async () => {
    const fetchMock = vi.fn(async () => json(200, { success: true, result: { a: 1 }, error: null }));
    vi.stubGlobal('fetch', fetchMock);
    await expect(request('/zones', { query: { page: 1, query: '' } })).resolves.toEqual({ a: 1 });
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/zones?page=1');
    expect((init.headers as Record<string, string>).Authorization).toBe('Bearer tok123');
    expect((init.headers as Record<string, string>)['X-Requested-With']).toBe('XMLHttpRequest');
  });

  it('success false is a rejection with a toast', async () => {
    vi.stubGlobal('fetch', async () =>
      json(200, { success: false, result: null, error: { code: 400, message: 'Mal' } }),
    );
    await expect(request('/x')).rejects.toBeInstanceOf(HttpError);
    expect(toast).toHaveBeenCalledWith('Mal');
  });

  it('a file answer is not an error', async () => {
    vi.stubGlobal(
      'fetch',
      async () =>
        new Response('PK', {
          status: 200,
          headers: {
            'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
            'content-disposition': 'attachment; filename="Zonas.xlsx"',
          },
        }),
    );
    const r = await request<{ blob: Blob; filename: string }>('/zones/export');
    expect(r.filename).toBe('Zonas.xlsx');
    expect(toast).not.toHaveBeenCalled();
  });

  it('401 goes to login, 403 to error-403 (no toast), silent calls neither', async () => {
    vi.stubGlobal('fetch', async () =>
      json(401, { success: false, result: null, error: { code: 401, message: 'Sesión expirada' } }),
    );
    await expect(request('/x')).rejects.toMatchObject({ status: 401 });
    expect(unauthorized).toHaveBeenCalledTimes(1);
    expect(toast).toHaveBeenCalledWith('Sesión expirada');
    vi.stubGlobal('fetch', async () =>
      json(403, { success: false, result: null, error: { code: 403, message: 'Prohibido' } }),
    );
    await expect(request('/x')).rejects.toMatchObject({ status: 403 });
    expect(forbidden).toHaveBeenCalledTimes(1);
    expect(toast).toHaveBeenCalledTimes(1);
    await expect(request('/x', { silent: true })).rejects.toMatchObject({ status: 403 });
    expect(forbidden).toHaveBeenCalledTimes(1);
  });

  it('no answer at all: the localized UnknownError', async () => {
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('Failed to fetch');
    });
    await expect(request('/x')).rejects.toMatchObject({ status: 0 });
    expect(toast).toHaveBeenCalledWith(expect.stringContaining('error desconocido'));
  });

  it('a response without a message shows the generic text', async () => {
    vi.stubGlobal('fetch', async () => new Response('', { status: 500 }));
    await expect(request('/x')).rejects.toMatchObject({
      message: 'Ocurrió un error al procesar la solicitud',
    });
  });
});
