// Saved views of a list (issue 29): a list's filters, sort, search, hidden columns and page size,
// saved by name by a user, shared by an administrator with a role. A view is the list's URL query
// (the URL stays the source of truth: opening a view sets it).

import { field } from './resources/fields';
import { z } from './zod';

/** Who may share a view with a role: the holders of this permission (administrators). */
export const SHARE_VIEWS_PERMISSION = 'Admin.Roles.update';

export const savedViewSchema = z.object({
  /** The list's screen (its route, e.g. '/main/dealer'). */
  screen: field.text('Pantalla', 200),
  name: field.text('Nombre', 80),
  /** The list's URL query without the page (filter[x]=, sort=, order=, query=, perPage=, hide=). */
  params: z.string({ error: 'Filtros debe ser texto' }).max(2000, 'Filtros: máximo 2000 caracteres'),
  /** Shared with the users of this role (administrators only); null: the owner's alone. */
  role_id: z
    .number({ error: 'Rol debe ser un número' })
    .int()
    .positive('Rol no es válido')
    .nullable()
    .optional(),
});

export const savedViewQuerySchema = z.object({ screen: field.text('Pantalla', 200) });

export interface SavedView {
  id: number;
  screen: string;
  name: string;
  params: string;
  role_id: number | null;
  role_name: string | null;
  /** The caller saved it (and may delete it). */
  own: boolean;
}
