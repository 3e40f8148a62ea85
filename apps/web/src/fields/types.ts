// Declarations of the reusable form field types (SPEC §2 "Reusable form field types").
import type { ReactNode } from 'react';

export type FieldType =
  | 'text'
  | 'password'
  | 'email'
  | 'number'
  | 'percent'
  | 'price'
  | 'phone'
  | 'date'
  | 'daterange'
  | 'select'
  | 'textarea'
  | 'switch'
  | 'radio'
  | 'checkboxlist'
  | 'sortable'
  | 'buttongroup'
  | 'tree'
  | 'label'
  | 'chip'
  | 'file'
  | 'divider'
  | 'subheader'
  | 'alert'
  | 'spacer'
  | 'button'
  | 'accordion'
  | 'rating'
  | 'color'
  | 'location';

import type { Option } from '../lib/option';

export type { Option };

export interface TreeNode {
  id: string;
  label: string;
  children?: TreeNode[];
}

export interface FieldDef {
  name: string;
  type: FieldType;
  label?: string;
  /** Grid width out of 12 (default 12, or 6 for short inputs). */
  cols?: number;
  required?: boolean;
  min?: number;
  max?: number;
  minLength?: number;
  maxLength?: number;
  readOnly?: boolean;
  disabled?: boolean;
  placeholder?: string;
  helperText?: string;
  /** Applied to new records only; 'today' = current date; for a select, 0 = the first option. */
  default?: unknown;
  /** Shown only when creating (e.g. a user's first password). */
  onlyNew?: boolean;
  // select, radio, checkboxlist, buttongroup
  options?: Option[];
  /** Options and names from this general type (GET /api/general-types-values, cached); `options` until it loads. */
  generalType?: string;
  /**
   * Loads the options from GET /api/{resource}?perPage=-1 (with filter[...] from `filter`); a
   * catalogue whose contract says `lookupMode: 'search'` is searched instead (see `remote`).
   */
  resource?: string;
  filter?: Record<string, string | number>;
  /** Options filtered by another field's value: filter[key] = value of that field. */
  dependsOn?: { field: string; filter: string };
  /**
   * Fields whose value follows this one's (an agreement's zone is its dealer's): called with the
   * new value, it answers the values to set on the form (or nothing).
   */
  fills?: (value: unknown) => Promise<Record<string, unknown> | undefined>;
  autocomplete?: boolean;
  /**
   * Autocomplete that searches GET /api/{resource}/query-search as the user types and fetches
   * the chosen record by id: never the whole table. Default: the resource contract's
   * `lookupMode: 'search'`.
   */
  remote?: boolean;
  /** Autocomplete minimum search length (SPEC §5, default 2). */
  searchMinLength?: number;
  multiple?: boolean;
  chips?: boolean;
  avatar?: boolean;
  clearable?: boolean;
  optionLabel?: string;
  optionValue?: string;
  // textarea
  rows?: number;
  counter?: boolean;
  // tree
  tree?: TreeNode[];
  // accordion list: per item a set of text inputs
  itemFields?: { name: string; label: string }[];
  itemTitle?: (item: Record<string, unknown>, index: number) => string;
  // alert, subheader, button
  text?: ReactNode;
  severity?: 'success' | 'info' | 'warning' | 'error';
  onClick?: () => void;
  // file
  accept?: string;
  // location picker: emit the district id or the full object
  emit?: 'id' | 'object';
  /** Location picker: names of the three fields when it writes into separate fields. */
  locationFields?: { department: string; province: string; district: string };
}

/** Types that hold no value. */
export const DISPLAY_TYPES: FieldType[] = ['divider', 'subheader', 'alert', 'spacer', 'button'];
