// The words of the sign-in and lock screens and the network error, in Spanish (the one language
// of the product). A plain table: i18next cost the first bundle about 15 kB gzip for these eight.
export const es = {
  UnknownError: 'Ocurrió un error desconocido, revise su conexión e intente nuevamente',
  Loading: 'Cargando',
  LogIn: 'Iniciar Sesión',
  Username: 'Usuario o Email',
  Password: 'Contraseña',
  RememberMe: 'Recordarme',
  Locked: 'Pantalla bloqueada',
  Unlock: 'Desbloquear',
} as const;

export type TextKey = keyof typeof es;

/** The Spanish text of `key`. */
export const t = (key: TextKey): string => es[key];
