import { dealerContract } from '@app/contracts';
import Badge from '@mui/icons-material/Badge';
import ContactMail from '@mui/icons-material/ContactMail';
import Storefront from '@mui/icons-material/Storefront';
import { IconButton, Tooltip } from '@mui/material';
import { useNavigate } from 'react-router';
import { ResourceScreen } from '../../resources/ResourceScreen';
import { defineScreen, type ResourceScreenDef } from '../../resources/types';
import { useGlobalFilters } from '../../shell/filters';
import { addressFields } from './address';

/** The dealer's own lists: the toolbar dealer selector is set to it, then the list opens. */
const SUB_LISTS = [
  { label: 'Sedes', path: '/main/dealer-branch', icon: <Storefront fontSize="small" /> },
  { label: 'Contactos', path: '/main/dealer-contact', icon: <ContactMail fontSize="small" /> },
  { label: 'Empleados', path: '/main/employee', icon: <Badge fontSize="small" /> },
];

// The dealer's location is its ubigeo; the address_ ubigeo follows it (one picker, not two).
const dealerAddressFields = addressFields.filter((f) => f.type !== 'location');

export const dealerScreen = defineScreen({
  contract: dealerContract,
  columns: [
    { field: 'code', width: 90 },
    { field: 'name', flex: 2 },
    { field: 'zone_name' },
    { field: 'department_name', header: 'Departamento', sortable: false },
    { field: 'full_address', header: 'Direccion', flex: 2.5, sortable: false },
    { field: 'address_phone', header: 'Telefono', width: 110, sortable: false },
  ],
  actionsWidth: 190,
  form: [
    { name: 'code', type: 'text', label: 'Codigo', required: true, maxLength: 20 },
    { name: 'name', type: 'text', label: 'Nombre', required: true },
    { name: 'ruc', type: 'text', label: 'RUC', maxLength: 11 },
    { name: 'email', type: 'email', label: 'Email' },
    {
      name: 'company_id',
      type: 'select',
      label: 'Empresa',
      resource: 'companies',
      autocomplete: true,
      clearable: true,
    },
    { name: 'zone_id', type: 'select', label: 'Zona', resource: 'zones', clearable: true },
    {
      name: 'location',
      type: 'location',
      label: 'Ubicacion',
      locationFields: { department: 'department_id', province: 'province_id', district: 'district_id' },
    },
    ...dealerAddressFields,
    { name: 'active', type: 'switch', label: 'Habilitado' },
  ],
  toBody: (values) => ({
    ...values,
    address_department_id: values.department_id ?? null,
    address_province_id: values.province_id ?? null,
    address_district_id: values.district_id ?? null,
  }),
});

function SubListButtons({ id }: { id: number }) {
  const navigate = useNavigate();
  const { setDealerId } = useGlobalFilters();
  return (
    <>
      {SUB_LISTS.map((s) => (
        <Tooltip key={s.label} title={s.label}>
          <IconButton
            size="small"
            aria-label={s.label}
            onClick={() => {
              setDealerId(id);
              navigate(s.path);
            }}
          >
            {s.icon}
          </IconButton>
        </Tooltip>
      ))}
    </>
  );
}

const def: ResourceScreenDef = { ...dealerScreen, rowActions: (row) => <SubListButtons id={row.id} /> };

export default function DealerScreen() {
  return <ResourceScreen def={def} />;
}
