// Validation messages of SPEC §5, word for word. Used by the zod schemas of both sides.
export const messages = {
  required: (field: string) => `${field} es obligatorio`,
  min: (field: string, value: number | string) => `${field} el valor mínimo es ${value}`,
  max: (field: string, value: number | string) => `${field} el valor máximo es ${value}`,
  password: 'Mínimo 8 caracteres',
  email: 'Debe ser un Email válido.',
  date: 'Formato de fecha YYYY-MM-DD',
  loading: 'Cargando',
  emptySelect: 'Sin registros disponibles',
  saved: 'Guardado Correctamente',
  genericError: 'Ocurrió un error al procesar la solicitud',
  loginFailed: 'Usuario o contraseña incorrectos',
  accountNotConfirmed: 'Su cuenta aún no ha sido confirmada. Consulte con el administrador del sistema.',
  confirmNo: 'No',
  confirmYes: 'Sí, Seguro',
} as const;
