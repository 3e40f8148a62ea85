import { dealerContract } from '@app/contracts';
import Badge from '@mui/icons-material/Badge';
import ContactMail from '@mui/icons-material/ContactMail';
import Storefront from '@mui/icons-material/Storefront';
import { IconButton, Tooltip } from '@mui/material';
import { useNavigate } from 'react-router';
import { contractForm } from '../../resources/fromContract';
import { ResourceScreen } from '../../resources/ResourceScreen';
import { defineScreen, type ResourceScreenDef } from '../../resources/types';
import { useGlobalFilters } from '../../session/filters';

/** The dealer's own lists: the toolbar dealer selector is set to it, then the list opens. */
const SUB_LISTS = [
  { label: 'Sedes', path: '/main/dealer-branch', icon: <Storefront fontSize="small" /> },
  { label: 'Contactos', path: '/main/dealer-contact', icon: <ContactMail fontSize="small" /> },
  { label: 'Empleados', path: '/main/employee', icon: <Badge fontSize="small" /> },
];

// The dealer's location is its ubigeo; the address_ ubigeo follows it (one picker, not two).
export const dealerScreen = defineScreen({
  contract: dealerContract,
  actionsWidth: 190,
  form: contractForm(dealerContract).filter((f) => f.name !== 'address_location'),
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
