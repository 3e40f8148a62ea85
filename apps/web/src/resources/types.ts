// A screen of one resource: its shared contract says the columns and the dialog's fields; a
// screen file says only what the contract cannot (row buttons, a header, another layout).
import type { ResourceContract } from '@app/contracts';
import type { GridRenderCellParams } from '@mui/x-data-grid';
import type { ReactNode } from 'react';
import type { FieldDef, Option } from '../fields/types';
import { contractColumns, contractForm, pickFields, referenceFilter, resolveColumn } from './fromContract';

/** A list column, as the grid shows it (resolved from the contract, see fromContract.ts). */
export interface ColumnDef {
  field: string;
  /** Defaults to the contract's label of the field. */
  header?: string;
  width?: number;
  flex?: number;
  /** The narrowest the column gets (the grid scrolls sideways rather than cut a value short). */
  minWidth?: number;
  type?: 'string' | 'number' | 'boolean' | 'date';
  /**
   * A column filter: filter[key]=value (key defaults to the field). Defaults to the contract's
   * `filter` flag (with the options of a fixed list); false: none.
   */
  filter?: { key?: string; options?: Option[] } | false;
  render?: (row: Record<string, any>) => ReactNode;
  /** Names (and filter options) from this general type (Preferences), as the screen shows them. */
  generalType?: string;
}

/** A column of a screen file: a field name, or the field with what differs from the contract. */
export type ColumnDecl = string | ColumnDef;
/** A dialog field of a screen file: a name (contract field or derived one such as 'location'),
 * or the name with what differs from the contract. */
export type FieldDecl = string | (Partial<FieldDef> & { name: string });

interface ScreenOptions {
  /** Default page size; the contract's (SPEC §9) when absent. */
  pageSize?: number;
  /** filter[...] key the toolbar dealer selector applies (default: the filtered reference to dealers). */
  dealerFilter?: string;
  /** filter[...] key the toolbar brand selector applies (default: the filtered reference to manufacturers). */
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
  /** A read-only resource: no Nuevo, edit or delete whatever the permissions (row buttons stay). */
  readOnly?: boolean;
  /** Rows as tall as their cells (cells of two lines: a name and a caption under it). */
  autoRowHeight?: boolean;
  /** After a record is saved or deleted (e.g. Preferences refreshes the cached general types). */
  afterWrite?: () => void;
}

/** What ResourceScreen renders: every column and field resolved. */
export interface ResourceScreenDef extends ScreenOptions {
  contract: ResourceContract;
  columns: ColumnDef[];
  form: FieldDef[];
}

/** A screen as declared: columns and form default to the contract's. */
export interface ScreenDecl extends ScreenOptions {
  contract: ResourceContract;
  /** Column order and what differs; default: the contract's columns. */
  columns?: ColumnDecl[];
  /** Dialog fields in order and what differs; default: the contract's form. */
  form?: FieldDecl[];
}

export type { GridRenderCellParams };

/** The default page size is the contract's (SPEC §9), shared with the server's default. */
export const pageSizeOf = (def: ResourceScreenDef) => def.pageSize ?? def.contract.pageSize;

export function defineScreen(decl: ScreenDecl): ResourceScreenDef {
  const { contract } = decl;
  return {
    dealerFilter: referenceFilter(contract, 'dealers'),
    manufacturerFilter: referenceFilter(contract, 'manufacturers'),
    ...decl,
    columns: decl.columns
      ? decl.columns.map((c) => resolveColumn(contract, typeof c === 'string' ? { field: c } : c))
      : contractColumns(contract),
    form: decl.form ? pickFields(contract, decl.form) : contractForm(contract),
  };
}
