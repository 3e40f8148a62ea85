// The five actions of a permission, their Spanish words and the permission name they make.
// A leaf: it imports nothing, so the resource contracts (fields.ts) and the menu tree
// (permissions.ts, which reads the contracts) both stand on it without a circle.
export const PERMISSION_ACTIONS = ['view', 'store', 'update', 'destroy', 'export'] as const;
export type PermissionAction = (typeof PERMISSION_ACTIONS)[number];

export const permissionName = (base: string, action: PermissionAction) => `${base}.${action}`;

/** The Spanish word of each action ("Concesionarios - Ver", the role permission tree, 403s). */
export const PERMISSION_ACTION_LABELS: Record<PermissionAction, string> = {
  view: 'Ver',
  store: 'Crear',
  update: 'Editar',
  destroy: 'Eliminar',
  export: 'Exportar',
};
