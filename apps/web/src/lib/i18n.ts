// i18next in Spanish: the words of the sign-in and lock screens and the network error.
import i18next from 'i18next';

export const i18n = i18next.createInstance();

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

void i18n.init({ lng: 'es', fallbackLng: 'es', resources: { es: { translation: es } }, initAsync: false });

export const t = (key: keyof typeof es | string) => i18n.t(key);
