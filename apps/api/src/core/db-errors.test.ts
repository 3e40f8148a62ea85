// PostgreSQL errors → Spanish envelope errors, including expression indexes.
import { describe, expect, it } from 'vitest';
import '../modules/security/security.resources';
import { mapDbError } from './db-errors';

describe('mapDbError', () => {
  it('names the column of an expression unique index (lower(btrim(email)))', () => {
    const err = mapDbError({
      code: '23505',
      table: 'users',
      detail: 'Key (lower(btrim(email::text)))=(ana@example.com) already exists.',
    });
    expect(err?.statusCode).toBe(409);
    expect(err?.message).toBe('El valor de Email ya existe');
  });

  it('names both columns of a composite key', () => {
    const err = mapDbError({
      code: '23505',
      table: 'users',
      detail: 'Key (username, email)=(a, b) already exists.',
    });
    expect(err?.message).toBe('Ya existe un registro con el mismo Usuario y Email');
  });

  it('answers 503 for every kind of unavailable database, not for an ordinary 55000', () => {
    const unavailable = [
      { code: '55000', message: 'database "red" is not currently accepting connections' },
      { code: '57P01', message: 'terminating connection due to administrator command' },
      { code: '57P04', message: 'database dropped' },
      { code: '3D000', message: 'database "red" does not exist' },
      { code: '28P01', message: 'password authentication failed for user "app"' },
      { code: '53100', message: 'could not extend file: No space left on device' },
      { code: '25006', message: 'cannot execute INSERT in a read-only transaction' },
      { message: 'Failed query: select 1', cause: { code: 'ECONNREFUSED' } },
    ];
    for (const e of unavailable) expect(mapDbError(e)?.statusCode, e.message).toBe(503);
    expect(
      mapDbError({ code: '55000', message: 'currval of sequence "s" is not yet defined' }),
    ).toBeUndefined();
  });
});
