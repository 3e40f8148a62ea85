// Validation messages of SPEC §5, word for word. Used by the zod schemas of both sides.
export const messages = {
  required: (field: string) => `${field} es obligatorio`,
  min: (field: string, value: number | string) => `${field} el valor minimo es ${value}`,
  max: (field: string, value: number | string) => `${field} el valor maximo es ${value}`,
  password: 'Minimo 8 caracteres',
  email: 'Debe ser un Email valido.',
  date: 'Formato de fecha YYYY-MM-DD',
  loading: 'Cargando',
  emptySelect: 'Sin registros disponibles',
  saved: 'Guardado Correctamente',
  genericError: 'Ocurrio un error al procesar la solicitud',
  loginFailed: 'Usuario o contraseña incorrectos',
  accountNotConfirmed: 'Su cuenta aun no ha sido confirmada. Consulte con el administrador del sistema.',
  confirmNo: 'No',
  confirmYes: 'Si, Seguro',
} as const;
