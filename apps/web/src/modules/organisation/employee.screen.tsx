import { employeeContract, LICENSE_CATEGORIES } from '@app/contracts';

const licenses = LICENSE_CATEGORIES.map((c) => ({ ...c }));

import { dealerBranchField, dealerField } from '../../fields/shared';
import { ResourceScreen } from '../../resources/ResourceScreen';
import { defineScreen } from '../../resources/types';

export const employeeScreen = defineScreen({
  contract: employeeContract,
  dealerFilter: 'dealer_id',
  columns: [
    { field: 'last_name' },
    { field: 'first_name' },
    { field: 'document_number', width: 130 },
    { field: 'position' },
    { field: 'dealer_name', flex: 1.5 },
    { field: 'dealer_branch_name', sortable: false },
    { field: 'license_category', width: 120, sortable: false, filter: { options: licenses } },
  ],
  form: [
    dealerField(),
    dealerBranchField(),
    { name: 'first_name', type: 'text', label: 'Nombres', required: true },
    { name: 'last_name', type: 'text', label: 'Apellidos', required: true },
    { name: 'document_number', type: 'text', label: 'Nro. Documento', maxLength: 20 },
    { name: 'position', type: 'text', label: 'Cargo' },
    { name: 'email', type: 'email', label: 'Email' },
    { name: 'phone', type: 'phone', label: 'Telefono' },
    {
      name: 'license_category',
      type: 'select',
      label: 'Categoria de licencia',
      options: licenses,
      clearable: true,
    },
    { name: 'active', type: 'switch', label: 'Habilitado' },
  ],
});

export default function EmployeeScreen() {
  return <ResourceScreen def={employeeScreen} />;
}
