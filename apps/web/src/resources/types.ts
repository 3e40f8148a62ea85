// One client-side declaration per resource: its shared contract, its columns and its form.
import type { ResourceContract } from '@app/contracts';
import type { GridRenderCellParams } from '@mui/x-data-grid';
import type { ReactNode } from 'react';
import type { FieldDef, Option } from '../fields/types';

export interface ColumnDef {
  field: string;
  /** Defaults to the contract's label of the field. */
  header?: string;
  width?: number;
  flex?: number;
  type?: 'string' | 'number' | 'boolean' | 'date';
  /** The server sorts by it (default true). */
  sortable?: boolean;
  /** A column filter: filter[key]=value (key defaults to the field; e.g. zone_name → zone_id). */
  filter?: { key?: string; options?: Option[]; resource?: string } | true;
  render?: (row: Record<string, any>) => ReactNode;
}

export interface ResourceScreenDef {
  contract: ResourceContract;
  columns: ColumnDef[];
  form: FieldDef[];
  /** Default page size; SPEC §9 defaults when absent. */
  pageSize?: number;
  /** filter[...] key the toolbar dealer selector applies (e.g. 'dealer_id'). */
  dealerFilter?: string;
  /** filter[...] key the toolbar brand selector applies (e.g. 'manufacturer_id'). */
  manufacturerFilter?: string;
  /** The record as the form edits it (after GET /{path}/get/{id}). */
  toForm?: (record: Record<string, any>) => Record<string, any>;
  /** The body sent on save. */
  toBody?: (values: Record<string, any>, isNew: boolean) => Record<string, any>;
  /** Width of the form dialog (default 700). */
  dialogWidth?: number;
  /** Ask before closing a form with unsaved changes (SPEC §5: exists, off by default). */
  confirmUnsaved?: boolean;
  /** Extra row buttons beside edit/delete (e.g. a dealer's branches, a role's permissions). */
  rowActions?: (row: Record<string, any>, ctx: { refresh: () => void }) => ReactNode;
  /** Width of the actions column when rowActions adds buttons (default 110). */
  actionsWidth?: number;
  /** Shown above the grid (e.g. a tree of the same records). */
  header?: ReactNode;
  /** Check boxes on the rows: the chosen ids are reported (kept across pages). */
  onSelectionChange?: (ids: number[]) => void;
  /** filter[...] always applied (and given to new records), e.g. the values of one general type. */
  fixedFilters?: Record<string, string | number>;
}

export type { GridRenderCellParams };

/** The default page size is the contract's (SPEC §9), shared with the server's default. */
export const pageSizeOf = (def: ResourceScreenDef) => def.pageSize ?? def.contract.pageSize;

export function defineScreen(def: ResourceScreenDef): ResourceScreenDef {
  return def;
}
