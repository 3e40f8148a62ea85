import type { Ref } from 'react';
import type { FieldDef } from '../types';

/** What every input of the kit receives from the form. */
export interface InputProps<V = any> {
  field: FieldDef;
  value: V;
  onChange: (value: V) => void;
  onBlur?: () => void;
  error?: string;
  inputRef?: Ref<any>;
  /** The other values of the form (dependent selects). */
  values?: Record<string, unknown>;
}

export const labelOf = (f: FieldDef) => f.label ?? f.name;
