// Security headers on every answer (pages, assets, API, errors), as helmet sets them.
// The policy is the one the built client runs under: scripts only from this server (Vite emits
// no inline script), styles from this server plus inline ones (MUI/emotion inject <style> tags
// and style="" attributes, which a nonce cannot cover), images from this server, data: (avatars,
// icons) and blob: (downloads), nothing may frame a page, and no address (e.g. the survey token
// of /encuesta?token=...) leaves in a Referer header. The Swagger UI at /api/docs runs under it
// too (its scripts and styles are files of this server; its icons are data: images).

import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';

export const CONTENT_SECURITY_POLICY = {
  // Spelled out entirely: no defaults that would differ between helmet versions.
  useDefaults: false,
  directives: {
    defaultSrc: ["'self'"],
    baseUri: ["'self'"],
    scriptSrc: ["'self'"],
    scriptSrcAttr: ["'none'"],
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:', 'blob:'],
    fontSrc: ["'self'", 'data:'],
    connectSrc: ["'self'"],
    objectSrc: ["'none'"],
    frameSrc: ["'none'"],
    frameAncestors: ["'none'"],
    formAction: ["'self'"],
    // No upgrade-insecure-requests: the server is often reached over plain HTTP on a LAN
    // address, where upgrading every asset to https would leave a blank page.
  },
};

const HELMET_OPTIONS: Parameters<typeof helmet>[0] = {
  contentSecurityPolicy: CONTENT_SECURITY_POLICY,
  referrerPolicy: { policy: 'no-referrer' },
  frameguard: { action: 'deny' },
  // Browsers ignore it over HTTP; behind a TLS proxy it keeps them on HTTPS (this host only).
  strictTransportSecurity: { maxAge: 15552000, includeSubDomains: false },
  crossOriginEmbedderPolicy: false,
};

/**
 * The headers helmet sets for these options, computed once: they depend on nothing in the
 * request (no nonce), and helmet would rebuild the same policy string on every answer.
 */
export function securityHeaders(): Record<string, string> {
  const headers: Record<string, string> = {};
  const res = {
    setHeader: (name: string, value: unknown) => {
      headers[name] = String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name];
    },
  };
  helmet(HELMET_OPTIONS)({} as never, res as never, () => {});
  return headers;
}

export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  const headers = securityHeaders();
  app.addHook('onRequest', async (_request, reply) => {
    reply.headers(headers);
  });
}
