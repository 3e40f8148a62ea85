export const APP_NAME = 'Red de Concesionarios';
export const APP_VERSION = '0.1.0';
