// SPEC §9 page sizes: declared once in the contracts; the server's default and the client's list use them.
import { RESOURCE_CONTRACTS } from '@app/contracts';
import { describe, expect, it } from 'vitest';
import { readListParams, storedPageSize, storePageSize } from '../src/resources/listParams';
import { pageSizeOf, type ResourceScreenDef } from '../src/resources/types';

const SPEC_SIZES: Record<string, number> = {
  users: 10,
  roles: 50,
  'general-types': 15,
  departments: 10,
  provinces: 10,
  districts: 10,
  'type-values': 10,
  configurations: 10,
  // A questionnaire's questions are edited on one page (the questions dialog), not paged by 5.
  'quiz-questions': 50,
  // The audit trail pages like the other administration lists of its screen.
  'audit-logs': 10,
};

describe('default page sizes (SPEC §9)', () => {
  it("users 10, roles 50, general types 15, ubigeo and preferences lists 10, the rest SPEC's default 10", () => {
    for (const [path, contract] of Object.entries(RESOURCE_CONTRACTS)) {
      expect(contract.pageSize, path).toBe(SPEC_SIZES[path] ?? 10);
    }
  });
  it('a screen lists with its contract page size unless it sets its own', () => {
    const contract = RESOURCE_CONTRACTS.roles;
    expect(pageSizeOf({ contract } as unknown as ResourceScreenDef)).toBe(50);
    expect(pageSizeOf({ contract, pageSize: 20 } as unknown as ResourceScreenDef)).toBe(20);
  });
});

describe("a user's page size sticks per list (issue 27)", () => {
  it('the list opens at the size chosen for it; the URL wins when it names one', () => {
    localStorage.clear();
    expect(readListParams(new URLSearchParams(), 10, 'zones').perPage).toBe(10);
    storePageSize('zones', 50, 10);
    expect(readListParams(new URLSearchParams(), 10, 'zones').perPage).toBe(50);
    // Another list keeps its own default; a shared link's size is the one shown.
    expect(readListParams(new URLSearchParams(), 10, 'dealers').perPage).toBe(10);
    expect(readListParams(new URLSearchParams('perPage=20'), 10, 'zones').perPage).toBe(20);
    // Choosing the default again forgets the choice; a stored size outside SPEC's list is ignored.
    storePageSize('zones', 10, 10);
    expect(storedPageSize('zones')).toBeUndefined();
    localStorage.setItem('list-page-size:zones', '7');
    expect(readListParams(new URLSearchParams(), 10, 'zones').perPage).toBe(10);
  });
});
