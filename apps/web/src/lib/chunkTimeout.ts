// A lazy screen's code that does not arrive in time is an error (SPEC §9), not an endless spinner.
import { LIMITS } from '@app/contracts';
import type { ComponentType } from 'react';

type Loader = () => Promise<{ default: ComponentType }>;

/** SPEC §9: a screen's code that has not arrived after 120 s is an error, not an endless spinner. */
export function withChunkTimeout(loader: Loader, ms: number = LIMITS.chunkLoadTimeoutMs): Loader {
  return () =>
    new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error('La página tardó demasiado en cargar')), ms);
      loader().then(
        (m) => {
          clearTimeout(t);
          resolve(m);
        },
        (e) => {
          clearTimeout(t);
          reject(e);
        },
      );
    });
}
