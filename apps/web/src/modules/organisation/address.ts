// The address_ fields of SPEC §3 as form fields (companies and others reuse them).
import type { FieldDef } from '../../fields/types';

export const addressFields: FieldDef[] = [
  { name: 'address_divider', type: 'divider', label: 'Direccion' },
  {
    name: 'address_country_id',
    type: 'select',
    label: 'Pais',
    resource: 'countries',
    autocomplete: true,
    clearable: true,
  },
  { name: 'address_postcode', type: 'text', label: 'Codigo postal' },
  {
    name: 'address_location',
    type: 'location',
    label: 'Ubigeo',
    locationFields: {
      department: 'address_department_id',
      province: 'address_province_id',
      district: 'address_district_id',
    },
  },
  { name: 'address_address1', type: 'text', label: 'Direccion', cols: 12 },
  { name: 'address_address2', type: 'text', label: 'Direccion 2' },
  { name: 'address_other', type: 'text', label: 'Referencia' },
  { name: 'address_phone', type: 'phone', label: 'Telefono' },
  { name: 'address_phone_mobile', type: 'phone', label: 'Celular' },
];
