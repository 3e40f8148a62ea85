// SPEC §9 page sizes: the server's default (the contract) and the client's list agree.
import { RESOURCE_CONTRACTS } from '@app/contracts';
import { describe, expect, it } from 'vitest';
import { BASE_PAGE_SIZE, pageSizeOf, type ResourceScreenDef } from '../src/resources/types';

describe('default page sizes (SPEC §9)', () => {
  it('the contract of every resource declares the page size the client uses', () => {
    for (const [path, contract] of Object.entries(RESOURCE_CONTRACTS)) {
      const def = { contract, columns: [], fields: [] } as unknown as ResourceScreenDef;
      expect(contract.pageSize, path).toBe(pageSizeOf(def));
    }
  });
  it('users 10, roles 50, general types 15, ubigeo and preferences lists 10, the rest 5', () => {
    const sizes = Object.fromEntries(Object.entries(RESOURCE_CONTRACTS).map(([p, c]) => [p, c.pageSize]));
    expect(sizes).toMatchObject({
      users: 10,
      roles: 50,
      'general-types': 15,
      departments: 10,
      provinces: 10,
      districts: 10,
      'type-values': 10,
      configurations: 10,
      dealers: 5,
      companies: 5,
      zones: 5,
    });
    expect(BASE_PAGE_SIZE).toBe(5);
  });
});
