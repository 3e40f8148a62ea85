// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the probes are source text with ${...} in it
// No API path is typed twice: the web calls the API through the contracts' calls (`call(contract,
// {params, query, body})`, src/lib/http.ts) and a resource's calls from its contract
// (`resourceCalls(contract)`), never through a path string of its own. This test reads every
// source file of src/ and fails on a string that names an API path: one that starts with /api/,
// one handed to the HTTP helpers (http.get/post/put/del, request, downloadFile), or one whose
// first segment is an API path of the contracts ('/dealers/get/1', `/quizzes/${id}`). What truly
// cannot be a contract is listed in ALLOWED with its reason; calls not yet moved to a contract
// are listed in NOT_YET, which may only shrink (an entry no longer found fails too).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { API_CALLS, RESOURCE_CONTRACTS } from '@app/contracts';
import { describe, expect, it } from 'vitest';

/** The sources read (API_PATHS_SRC: another tree's, to count its hand paths). */
const SRC = process.env.API_PATHS_SRC ?? join(__dirname, '..', 'src');

/** file → the literals it may keep, each with why it cannot be a contract. */
const ALLOWED: Record<string, Record<string, string>> = {
  'lib/http.ts': {
    '/api${path}${buildQuery(opts.query)}': 'the one place that prefixes /api to a contract path (request)',
  },
  'modules/dashboard/home.data.ts': {
    '/sales': 'a link to the Ventas screen (a client route that shares its name with the API)',
    '/sales?from=${p.from}&to=${p.to}': 'the same screen link, with its period',
  },
};

/**
 * Calls still typed by hand, waiting for their contract (issue 26, point 4). Remove an entry when
 * its call moves to a contract; never add one.
 */
const NOT_YET: Record<string, string[]> = {};

/** The first path segment of every call in the contracts and of every resource. */
function apiSegments(): Set<string> {
  const out = new Set<string>(Object.keys(RESOURCE_CONTRACTS).map((p) => p.split('/')[0]!));
  for (const group of Object.values(API_CALLS))
    for (const c of Object.values(group)) out.add(c.path.replace(/^\/api\//, '').split(/[/?]/)[0]!);
  return out;
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.(ts|tsx)$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

/** Each string literal starting with '/', with its line and whether an HTTP helper takes it. */
function pathLiterals(text: string): { literal: string; line: number; helper: boolean }[] {
  const out: { literal: string; line: number; helper: boolean }[] = [];
  const re = /(['"`])(\/[^'"`\s]*)\1?/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const before = text.slice(Math.max(0, m.index - 300), m.index);
    const helper =
      /(?:\bhttp\s*\.\s*(?:get|post|put|del)|\brequest|\bdownloadFile)\s*(?:<[\s\S]*>)?\(\s*$/.test(before);
    out.push({ literal: m[2]!, line: text.slice(0, m.index).split('\n').length, helper });
  }
  return out;
}

/** Every string in src/ that names an API path, as 'file:line literal'. */
function handTypedApiPaths(): { file: string; line: number; literal: string }[] {
  const segments = apiSegments();
  const found: { file: string; line: number; literal: string }[] = [];
  for (const path of sources(SRC)) {
    const file = relative(SRC, path).replaceAll('\\', '/');
    for (const { literal, line, helper } of pathLiterals(readFileSync(path, 'utf8'))) {
      const first = literal.slice(1).split(/[/?$]/)[0]!;
      if (literal.startsWith('/api/') || literal.startsWith('/api$') || helper || segments.has(first))
        found.push({ file, line, literal });
    }
  }
  return found;
}

describe('API paths are typed once, in the contracts', () => {
  const found = handTypedApiPaths();

  it('the web types no API path outside the contracts (beyond the justified ones)', () => {
    console.log(`API-PATHS ${found.length} rutas de la API escritas a mano en apps/web/src`);
    const wrong = found.filter(
      (f) => !ALLOWED[f.file]?.[f.literal] && !(NOT_YET[f.file] ?? []).includes(f.literal),
    );
    expect(wrong.map((f) => `${f.file}:${f.line} ${f.literal}`)).toEqual([]);
  });

  it('the lists of exceptions hold only what is still there', () => {
    const stale = [
      ...Object.entries(ALLOWED).flatMap(([file, m]) => Object.keys(m).map((l) => [file, l] as const)),
      ...Object.entries(NOT_YET).flatMap(([file, ls]) => ls.map((l) => [file, l] as const)),
    ].filter(([file, literal]) => !found.some((f) => f.file === file && f.literal === literal));
    expect(stale).toEqual([]);
  });

  it('finds a hand path when there is one (the check itself)', () => {
    const probe = [
      "http.get<X>('/dealers/get/1')",
      'downloadFile(`/whatever/${id}/export`, name)',
      "const url = '/api/sales/import';",
      'fetch(`/zones/${id}`)',
    ].join('\n');
    const segments = apiSegments();
    const hits = pathLiterals(probe).filter(
      (p) => p.helper || p.literal.startsWith('/api/') || segments.has(p.literal.slice(1).split(/[/?$]/)[0]!),
    );
    expect(hits.map((h) => h.literal)).toEqual([
      '/dealers/get/1',
      '/whatever/${id}/export',
      '/api/sales/import',
      '/zones/${id}',
    ]);
  });
});
