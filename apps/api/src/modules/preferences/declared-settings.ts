// The declared settings of the `configurations` table: the only keys /api/configurations and
// /api/configurations/save accept, with the default the seed inserts.
import { LIMITS } from '@app/contracts';
export interface DeclaredSetting {
  key: string;
  value: string;
  is_public: boolean;
  description: string;
}

/** Settings rows. Public ones are answered by GET /api/getUserConfigurations without a token. */
export const CONFIGURATIONS: DeclaredSetting[] = [
  {
    key: 'COMPANY_NAME',
    value: 'Red de Concesionarios',
    is_public: true,
    description: 'Nombre de la empresa (título de las páginas)',
  },
  {
    key: 'APP_NAME',
    value: 'Back Office Concesionarios',
    is_public: true,
    description: 'Nombre de la aplicación',
  },
  {
    key: 'DEFAULT_CURRENCY_SIGN',
    value: 'S/',
    is_public: true,
    description: 'Símbolo de moneda por defecto',
  },
  {
    key: 'DEFAULT_PAGE_SIZE',
    value: String(LIMITS.defaultPageSize),
    is_public: true,
    description: 'Registros por página por defecto',
  },
  {
    key: 'PRIMARY_COLOR',
    value: LIMITS.primaryColor,
    is_public: true,
    description: 'Color principal del tema',
  },
  { key: 'DATE_FORMAT', value: 'YYYY-MM-DD', is_public: true, description: 'Formato de fecha' },
  { key: 'LOCALE', value: 'es', is_public: true, description: 'Idioma' },
  {
    key: 'SURVEY_EXPIRY_DAYS',
    value: '60',
    is_public: false,
    description: 'Días de vigencia del enlace de encuesta',
  },
  {
    key: 'SURVEY_MIN_SAMPLE',
    value: '5',
    is_public: false,
    description: 'Respuestas mínimas para entrar al ranking de encuestas',
  },
  {
    key: 'MAIL_FROM_ADDRESS',
    value: 'no-responder@example.com',
    is_public: false,
    description: 'Remitente de los correos',
  },
  {
    key: 'MAIL_FROM_NAME',
    value: 'Red de Concesionarios',
    is_public: false,
    description: 'Nombre del remitente',
  },
  {
    key: 'SALES_API_URL',
    value: '',
    is_public: false,
    description: 'URL de la API externa de ventas (vacío: no configurada)',
  },
  { key: 'SALES_API_TOKEN', value: '', is_public: false, description: 'Token de la API externa de ventas' },
  {
    key: 'CASIS_API_URL',
    value: '',
    is_public: false,
    description: 'URL del servicio CASIS (vacío: no configurado)',
  },
  { key: 'CASIS_API_TOKEN', value: '', is_public: false, description: 'Token del servicio CASIS' },
  {
    key: 'SIMA_API_URL',
    value: '',
    is_public: false,
    description: 'URL del sistema SIMA de despachos (vacío: no configurado)',
  },
  { key: 'SIMA_API_TOKEN', value: '', is_public: false, description: 'Token del sistema SIMA' },
  {
    key: 'TWO_FACTOR_REQUIRED',
    value: 'true',
    is_public: false,
    description:
      'Verificación en dos pasos obligatoria para los administradores (true/false): sin ella se pide activarla al iniciar sesión',
  },
  {
    key: 'SMTP_URL',
    value: '',
    is_public: false,
    description: 'Servidor de correo saliente smtp://usuario:clave@host:587 (si el entorno no lo define)',
  },
];

/**
 * The declared settings: the only keys /api/configurations and /api/configurations/save accept.
 * A new setting is added to CONFIGURATIONS (the seed then inserts it with its default).
 */
export const CONFIGURATION_KEYS: ReadonlySet<string> = new Set(CONFIGURATIONS.map((c) => c.key));
