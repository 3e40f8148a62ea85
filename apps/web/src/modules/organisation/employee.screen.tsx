// Employees are listed by surname first (the dialog asks for the first names first).
import { employeeContract } from '@app/contracts';
import { ResourceScreen } from '../../resources/ResourceScreen';
import { defineScreen } from '../../resources/types';

export const employeeScreen = defineScreen({
  contract: employeeContract,
  columns: [
    'last_name',
    'first_name',
    'document_number',
    'position',
    'dealer_name',
    'dealer_branch_name',
    'license_category',
  ],
});

export default function EmployeeScreen() {
  return <ResourceScreen def={employeeScreen} />;
}
