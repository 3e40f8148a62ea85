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
});
