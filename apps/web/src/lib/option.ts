// One choice of a select, a filter or a column's names: its id and what the user reads.
export interface Option {
  id: string | number;
  name: string;
  avatar?: string | null;
  [key: string]: unknown;
}
