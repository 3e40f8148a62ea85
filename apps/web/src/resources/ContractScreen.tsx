// The screen of a plain resource: everything it shows comes from the resource's contract
// (screens.ts maps every menu entry of a resource without a screen file of its own here).
import { RESOURCE_CONTRACTS, type ResourceContract } from '@app/contracts';
import type { ComponentType } from 'react';
import { ResourceScreen } from './ResourceScreen';
import { defineScreen } from './types';

const contracts = RESOURCE_CONTRACTS as Record<string, ResourceContract>;

/** The generic screen of the resource at this API path. */
export function contractScreen(path: string): ComponentType {
  const contract = contracts[path];
  if (!contract) throw new Error(`Sin contrato para ${path}`);
  const def = defineScreen({ contract });
  return function ContractScreen() {
    return <ResourceScreen def={def} />;
  };
}
