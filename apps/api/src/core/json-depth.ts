// A JSON body nested deeper than any form of the application needs is refused before it is
// parsed: deep nesting is only ever an attack on whatever walks the parsed value recursively.
import { BadRequestError } from './errors';

export const MAX_JSON_DEPTH = 64;

/** The deepest nesting of objects and arrays in a JSON text (strings skipped), stopping early. */
export function jsonDepthExceeds(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 /* { */ || c === 91 /* [ */) {
      if (++depth > max) return true;
    } else if (c === 125 /* } */ || c === 93 /* ] */) depth--;
  }
  return false;
}

export function assertJsonDepth(text: string): void {
  if (jsonDepthExceeds(text)) {
    throw new BadRequestError(
      `El cuerpo de la solicitud JSON tiene demasiados niveles de anidamiento (máximo ${MAX_JSON_DEPTH})`,
    );
  }
}
