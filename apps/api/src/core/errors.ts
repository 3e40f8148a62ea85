// Error classes every call throws; the envelope's error handler turns them into
// {success:false, error:{code, message, details?, validationErrors?}} with their status.
import type { ValidationErrorItem } from '@app/contracts';

export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly details?: string,
    readonly validationErrors?: ValidationErrorItem[],
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class BadRequestError extends AppError {
  constructor(message = 'La solicitud no es válida', details?: string) {
    super(400, message, details);
  }
}

export class UnauthorizedError extends AppError {
  constructor(message = 'Sesión expirada o token inválido, inicie sesión nuevamente') {
    super(401, message);
  }
}

export class ForbiddenError extends AppError {
  constructor(message = 'No tiene permiso para realizar esta acción', details?: string) {
    super(403, message, details);
  }
}

export class NotFoundError extends AppError {
  constructor(message = 'El registro solicitado no existe') {
    super(404, message);
  }
}

export class ConflictError extends AppError {
  constructor(message: string, details?: string) {
    super(409, message, details);
  }
}

export class PayloadTooLargeError extends AppError {
  constructor(message = 'El contenido enviado es demasiado grande') {
    super(413, message);
  }
}

export class ValidationError extends AppError {
  constructor(validationErrors: ValidationErrorItem[], message?: string) {
    super(
      422,
      message ??
        (validationErrors.length === 1 ? validationErrors[0].message : 'Los datos enviados no son válidos'),
      undefined,
      validationErrors,
    );
  }

  static field(field: string, message: string): ValidationError {
    return new ValidationError([{ field, message }]);
  }
}

export class TooManyRequestsError extends AppError {
  constructor(message: string) {
    super(429, message);
  }
}

/** The database cannot be reached (stopped, restarting, network cut): try again shortly. */
export class ServiceUnavailableError extends AppError {
  constructor(
    message = 'El servicio no está disponible en este momento (sin conexión con la base de datos). Intente nuevamente en unos segundos.',
  ) {
    super(503, message);
  }
}
