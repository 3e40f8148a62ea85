// The columns and dialog fields a screen file declares (resolved against its contract by
// fromContract.tsx).
import type { ReactNode } from 'react';
import type { FieldDef, Option } from '../fields/types';

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
