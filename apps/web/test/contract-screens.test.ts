// Screens read from the contracts: the grid's columns (sortable only where the server sorts),
// the dialog's fields (label, required, maximum length, the select of a reference) and the menu
// entry of every resource (title and permission of its head, a screen for every entry).
import {
  companyContract,
  dealerContract,
  employeeContract,
  MENU_TREE,
  type MenuNode,
  manufacturerModelContract,
  provinceContract,
  RESOURCE_CONTRACTS,
  type ResourceContract,
  userContract,
  zoneContract,
} from '@app/contracts';
import { describe, expect, it } from 'vitest';
import { SCREEN_COMPONENTS } from '../src/app/screens';
import { screenByName } from '../src/lib/screens';
import { contractColumns, contractForm, isSortable } from '../src/resources/fromContract';
import { defineScreen } from '../src/resources/types';

const contracts = RESOURCE_CONTRACTS as Record<string, ResourceContract>;
const byName = <T extends { name: string }>(fields: T[], name: string) => fields.find((f) => f.name === name);

function menuNodes(nodes: MenuNode[] = MENU_TREE): MenuNode[] {
  return nodes.flatMap((n) => [n, ...menuNodes(n.children ?? [])]);
}

describe('the grid from the contract', () => {
  it('zones: code and name, with their widths and labels; active is added by the screen', () => {
    expect(contractColumns(zoneContract)).toMatchObject([
      { field: 'code', width: 120, type: 'string' },
      { field: 'name', flex: 2, type: 'string' },
    ]);
  });

  it('a column is sortable only when the server sorts it', () => {
    for (const contract of Object.values(contracts)) {
      for (const c of contractColumns(contract)) {
        expect(isSortable(contract, c.field), `${contract.path}.${c.field}`).toBe(
          !!contract.fields[c.field].sort,
        );
      }
    }
    // Display fields the server does not sort: no click, no 422.
    expect(isSortable(dealerContract, 'full_address')).toBe(false);
    expect(isSortable(dealerContract, 'zone_name')).toBe(true);
  });

  it('a filtered fixed list gets its options and shows names', () => {
    const col = defineScreen({ contract: employeeContract }).columns.find(
      (c) => c.field === 'license_category',
    );
    expect(col?.filter ? col.filter.options?.map((o) => o.id) : []).toContain('A-IIb');
  });
});

describe('the dialog from the contract', () => {
  it('zones: label, required and maximum length from the rule', () => {
    const form = contractForm(zoneContract);
    expect(form.map((f) => f.name)).toEqual(['code', 'name', 'active']);
    expect(byName(form, 'code')).toEqual({ name: 'code', type: 'text', label: 'Código', maxLength: 20 });
    expect(byName(form, 'name')).toMatchObject({ label: 'Nombre', required: true, maxLength: 120 });
    expect(byName(form, 'active')).toMatchObject({ type: 'switch', label: 'Habilitado' });
  });

  it('a reference is a select of its resource; a short list is a plain select', () => {
    expect(byName(contractForm(provinceContract), 'department_id')).toMatchObject({
      type: 'select',
      resource: 'departments',
      required: true,
      autocomplete: true,
    });
    const brand = byName(contractForm(manufacturerModelContract), 'manufacturer_id');
    expect(brand).toMatchObject({ type: 'select', resource: 'manufacturers', required: true });
    expect(brand?.autocomplete).toBeUndefined();
  });

  it('a reference within another field follows it (a branch of the chosen dealer)', () => {
    expect(byName(contractForm(employeeContract), 'dealer_branch_id')).toMatchObject({
      resource: 'dealer-branches',
      dependsOn: { field: 'dealer_id', filter: 'dealer_id' },
      clearable: true,
    });
  });

  it('ubigeo references become one location picker; the address starts its own section', () => {
    const form = contractForm(companyContract);
    expect(form.map((f) => f.name)).toEqual([
      'name',
      'ruc',
      'email',
      'section_Dirección',
      'address_country_id',
      'address_postcode',
      'address_location',
      'address_address1',
      'address_address2',
      'address_other',
      'address_phone',
      'address_phone_mobile',
      'active',
    ]);
    expect(byName(form, 'address_location')?.locationFields).toEqual({
      department: 'address_department_id',
      province: 'address_province_id',
      district: 'address_district_id',
    });
    expect(byName(form, 'email')).toMatchObject({ type: 'email', maxLength: 150 });
    expect(byName(form, 'address_phone')).toMatchObject({ type: 'phone', label: 'Teléfono' });
    expect(
      contractForm(dealerContract)
        .filter((f) => f.type === 'location')
        .map((f) => f.name),
    ).toEqual(['location', 'address_location']);
  });

  it('a screen file names fields and says only what differs', () => {
    const screen = defineScreen({
      contract: userContract,
      form: ['username', { name: 'password', required: true, onlyNew: true }, 'roles'],
    });
    expect(screen.form).toEqual([
      expect.objectContaining({ name: 'username', label: 'Usuario', required: true, maxLength: 80 }),
      expect.objectContaining({ name: 'password', type: 'password', required: true, onlyNew: true }),
      expect.objectContaining({ name: 'roles', type: 'select', resource: 'roles', multiple: true }),
    ]);
    // The toolbar dealer selector applies to the filtered reference to dealers.
    expect(screen.dealerFilter).toBe('dealer_id');
  });
});

describe('the menu from the contracts', () => {
  it('an entry of a resource takes its title, permission and place from its contract', () => {
    const entries = menuNodes().filter((n) => n.resource);
    expect(entries.length).toBeGreaterThan(15);
    for (const n of entries) {
      const contract = contracts[n.resource!];
      expect([n.title, n.permission, n.name], n.name).toEqual([
        contract.title,
        contract.permission,
        contract.menu?.name,
      ]);
    }
    expect(screenByName('zone')).toMatchObject({
      title: 'Zonas',
      permission: 'Admin.Zones',
      path: '/main/zone',
    });
    // Placed in its group: first ones before the group's own entries, the others after them.
    const group = (name: string) => MENU_TREE.find((g) => g.name === name)?.children?.map((c) => c.name);
    expect(group('cem')).toEqual(['sales', 'quiz']);
    expect(group('documents')).toEqual(['extranet', 'category']);
    expect(group('figures-group')?.[0]).toBe('concept');
  });

  it('every menu entry with a path has a screen (the generic one for a plain resource)', () => {
    const missing = menuNodes()
      .filter((n) => n.path && !n.children)
      .filter((n) => !SCREEN_COMPONENTS[n.name]);
    expect(missing.map((n) => n.name)).toEqual([]);
  });
});

describe('phones in lists (issue 16)', () => {
  it('a phone column shows one format, whether stored as raw digits or through the mask', () => {
    const phone = contractColumns(contracts['dealer-contacts']).find((c) => c.field === 'phone');
    expect(phone?.render?.({ phone: '014451200' })).toBe('(01) 445-1200');
    expect(phone?.render?.({ phone: '(01) 444-5566' })).toBe('(01) 444-5566');
    expect(phone?.render?.({ phone: '987654321' })).toBe('987 654 321');
    expect(phone?.render?.({ phone: null })).toBe('');
    const dealerPhone = contractColumns(dealerContract).find((c) => c.field === 'address_phone');
    expect(dealerPhone?.render?.({ address_phone: '014451200' })).toBe('(01) 445-1200');
  });
});
