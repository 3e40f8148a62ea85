// A branch's dialog edits its location, street and phone only (the rest of the address_
// fields stay as they are).
import { dealerBranchContract } from '@app/contracts';
import { ResourceScreen } from '../../resources/ResourceScreen';
import { defineScreen } from '../../resources/types';

export const dealerBranchScreen = defineScreen({
  contract: dealerBranchContract,
  form: [
    { name: 'dealer_id', cols: 12 },
    'code',
    'name',
    'location',
    { name: 'address_address1', cols: 12 },
    'address_phone',
    'active',
  ],
});

export default function DealerBranchScreen() {
  return <ResourceScreen def={dealerBranchScreen} />;
}
