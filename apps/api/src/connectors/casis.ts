// Connector to CASIS, the dealers' management system that holds their monthly figures.
// Configured by CASIS_API_URL and CASIS_API_TOKEN (configurations). GET {url}?year&month
// [&dealer_code] with a Bearer token; the answer is an array of figures, or {data|result|figures:
// [...]}, each {dealer_code, concept_code, value} (or the Spanish keys concesionario, concepto,
// valor). The whole answer is read before anything is written: a failing or slow CASIS never
// leaves half a month.
import type { Executor } from '../core/action';
import { type ExternalAudience, type ExternalSystem, fetchExternalList } from './external-list';

export const CASIS: ExternalSystem = {
  name: 'CASIS',
  records: 'cifras',
  urlKey: 'CASIS_API_URL',
  tokenKey: 'CASIS_API_TOKEN',
  listKeys: ['data', 'result', 'figures'],
  maxRows: 200_000,
  timeoutMs: 60_000,
};

export interface CasisFigure {
  dealer_code: unknown;
  concept_code: unknown;
  value: unknown;
}

const KEYS: Record<string, keyof CasisFigure> = {
  dealer_code: 'dealer_code',
  concesionario: 'dealer_code',
  dealer: 'dealer_code',
  concept_code: 'concept_code',
  concepto: 'concept_code',
  concept: 'concept_code',
  value: 'value',
  valor: 'value',
};

export async function fetchCasisFigures(
  db: Executor,
  q: { year: number; month: number; dealer_code?: string },
  audience: ExternalAudience = 'configures',
): Promise<CasisFigure[]> {
  const list = await fetchExternalList(
    db,
    CASIS,
    {
      year: String(q.year),
      month: String(q.month),
      dealer_code: q.dealer_code,
    },
    undefined,
    audience,
  );
  return list.map((o) => {
    const out: CasisFigure = { dealer_code: undefined, concept_code: undefined, value: undefined };
    if (o && typeof o === 'object' && !Array.isArray(o))
      for (const [k, v] of Object.entries(o)) {
        const key = KEYS[k.toLowerCase()];
        if (key) out[key] = v;
      }
    return out;
  });
}
