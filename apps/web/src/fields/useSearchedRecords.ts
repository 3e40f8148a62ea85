// Records of a big catalogue as the user types: the server's quick search (query-search, at most
// 20 records), from the length `shouldSearch` asks for, 250 ms after the last key. The catalogue
// is never loaded whole.

import { resourceCalls } from '@app/contracts';
import { useEffect, useState } from 'react';
import { call } from '../lib/http';
import { shouldSearch } from './rules';

export function useSearchedRecords<T>(resource: string, text: string, enabled = true): T[] {
  const [found, setFound] = useState<T[]>([]);
  useEffect(() => {
    if (!enabled || !shouldSearch({ text, options: [] })) return;
    const t = setTimeout(() => {
      (call(resourceCalls(resource).search, { query: { query: text } }, { silent: true }) as Promise<T[]>)
        .then((r) => setFound(r ?? []))
        .catch(() => setFound([]));
    }, 250);
    return () => clearTimeout(t);
  }, [resource, text, enabled]);
  return found;
}
