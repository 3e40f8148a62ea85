// The {success, result, error} envelope: success helper, error handler, 404 handler.
import type { ApiError, Envelope } from '@app/contracts';
import { messages } from '@app/contracts';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { summarizeError } from '../lib/log-redact';
import { mapDbError } from './db-errors';
import { AppError, UnauthorizedError } from './errors';

export function ok<T>(result: T): Envelope<T> {
  return { success: true, result, error: null };
}

export function fail(error: ApiError): Envelope<null> {
  return { success: false, result: null, error };
}

/** Fastify's own 4xx errors (body parsing, content type, size) in Spanish. */
function frameworkError(err: FastifyError): AppError | undefined {
  switch (err.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
    case 'FST_REQ_FILE_TOO_LARGE':
    case 'FST_FILES_LIMIT':
    case 'FST_PARTS_LIMIT':
      return new AppError(413, 'El contenido enviado es demasiado grande');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError(415, 'Tipo de contenido no soportado');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError(400, 'El cuerpo de la solicitud JSON está vacío');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new AppError(400, 'El cuerpo de la solicitud no es un JSON válido', err.message);
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new AppError(400, 'La longitud del contenido no es válida');
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return new AppError(406, 'Se esperaba un formulario multipart');
    default:
      break;
  }
  if (err instanceof SyntaxError || err.name === 'SyntaxError') {
    return new AppError(400, 'El cuerpo de la solicitud no es un JSON válido', err.message);
  }
  const status = err.statusCode;
  if (status && status >= 400 && status < 500) {
    if (status === 401) return new UnauthorizedError();
    if (status === 429)
      return new AppError(429, 'Demasiadas solicitudes, intente nuevamente en unos minutos');
    return new AppError(
      status,
      status === 413 ? 'El contenido enviado es demasiado grande' : 'La solicitud no es válida',
      err.message,
    );
  }
  return undefined;
}

export function toAppError(err: unknown): AppError | undefined {
  if (err instanceof AppError) return err;
  return mapDbError(err) ?? frameworkError(err as FastifyError);
}

export function registerEnvelope(app: FastifyInstance): void {
  app.setErrorHandler((err: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const appErr = toAppError(err);
    if (!appErr) {
      request.log.error({ err }, 'error no controlado');
      return reply.status(500).send(fail({ code: 500, message: messages.genericError }));
    }
    // A lost database is an outage, not a fault of the code: one warning line, no stack.
    if (appErr.statusCode === 503) {
      request.log.warn({ causa: summarizeError(err) }, appErr.message);
      reply.header('Retry-After', '5');
    } else if (appErr.statusCode >= 500) request.log.error({ err }, appErr.message);
    const body: ApiError = { code: appErr.statusCode, message: appErr.message };
    if (appErr.details) body.details = appErr.details;
    if (appErr.validationErrors) body.validationErrors = appErr.validationErrors;
    return reply.status(appErr.statusCode).send(fail(body));
  });
}

export function notFoundEnvelope(request: FastifyRequest): Envelope<null> {
  return fail({ code: 404, message: `No existe la ruta ${request.method} ${request.url.split('?')[0]}` });
}
