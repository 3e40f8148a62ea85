// A screen of one resource: its shared contract says the columns and the dialog's fields; a
// screen file says only what the contract cannot (row buttons, a header, another layout).
import type { ResourceContract } from '@app/contracts';
import type { GridRenderCellParams } from '@mui/x-data-grid';
import type { ReactNode } from 'react';
import type { FieldDef } from '../fields/types';
import type { ColumnDecl, ColumnDef, FieldDecl } from './columns';
import { contractColumns, contractForm, pickFields, referenceFilter, resolveColumn } from './fromContract';

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

export type { ColumnDecl, ColumnDef, FieldDecl, GridRenderCellParams };

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
