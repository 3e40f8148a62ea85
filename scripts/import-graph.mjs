#!/usr/bin/env node
// The import graph of the three workspaces, read from the import statements of their sources
// (tests left out): its circles (files that reach themselves through imports, type imports
// included), its upward imports (a file importing from a layer above its own, by the LAYERS
// below), the circles between module folders, and the exports no other file imports.
// `node scripts/import-graph.mjs` prints the counts and every finding;
// apps/api/test/import-graph.test.ts holds them against a baseline that may only shrink.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The layers of each workspace, top first: a file may import from its own layer and the ones
 * below it, never from one above. A path matches the first prefix it starts with.
 */
export const LAYERS = {
  web: {
    src: 'apps/web/src',
    layers: [
      ['main.tsx'],
      ['app/'],
      ['modules/', 'pages/'],
      ['shell/'],
      ['resources/'],
      ['fields/', 'sheet/'],
      ['lib/', 'session/'],
    ],
  },
  api: {
    src: 'apps/api/src',
    layers: [
      ['main.ts', 'xlsx-worker.ts'],
      ['bootstrap.ts', 'app.ts', 'ops/'],
      ['seed/'],
      ['modules/', 'connectors/'],
      ['core/'],
      ['db/'],
      ['config.ts'],
      ['lib/'],
    ],
  },
  contracts: { src: 'packages/contracts/src', layers: [] },
};

const SOURCE = /\.(ts|tsx|mts|js|mjs)$/;
const TEST = /(\.test\.|\.spec\.|\/test\/|\/e2e\/)/;

function walk(dir, out = []) {
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (SOURCE.test(name) && !name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

/** Comments out, string and template contents kept (import paths are strings). */
function stripComments(text) {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

const IMPORT_RE =
  /(?:^|[;\n])\s*(import|export)\s+(type\s+)?([\s\S]*?)\s*from\s*['"]([^'"]+)['"]|(?:^|[;\n])\s*import\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

/** Every import of a file: the specifier, the names it takes ('*' for all), whether dynamic. */
export function parseImports(text) {
  const found = [];
  for (const m of stripComments(text).matchAll(IMPORT_RE)) {
    if (m[4]) {
      const clause = m[3];
      const names = [];
      if (/\*\s*(as\s+\w+)?/.test(clause) && !/\{/.test(clause)) names.push('*');
      const braces = clause.match(/\{([\s\S]*)\}/);
      if (braces)
        for (const part of braces[1].split(',')) {
          const n = part
            .trim()
            .replace(/^type\s+/, '')
            .split(/\s+as\s+/)[0]
            .trim();
          if (n) names.push(n);
        }
      const def = m[1] === 'import' ? clause.replace(/\{[\s\S]*\}/, '').match(/^(?:type\s+)?(\w+)/) : null;
      if (def && def[1] !== 'type') names.push('default');
      found.push({ spec: m[4], names, reexport: m[1] === 'export' });
    } else if (m[5]) found.push({ spec: m[5], names: [] });
    else if (m[6]) found.push({ spec: m[6], names: ['*'], dynamic: true });
  }
  return found;
}

const CONTRACTS_INDEX = path.join(ROOT, 'packages/contracts/src/index.ts');

function resolve(from, spec) {
  if (spec === '@app/contracts') return CONTRACTS_INDEX;
  if (!spec.startsWith('.')) return null;
  const base = path.resolve(path.dirname(from), spec.replace(/\.js$/, ''));
  for (const c of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`])
    if (existsSync(c) && statSync(c).isFile()) return c;
  return null;
}

/** The graph of every workspace's sources: file (relative to the root) -> its imports. */
export function buildGraph() {
  const files = Object.values(LAYERS).flatMap((w) => walk(path.join(ROOT, w.src)));
  const graph = new Map();
  for (const f of files) {
    const rel = path.relative(ROOT, f);
    if (TEST.test(rel)) continue;
    const imports = [];
    for (const imp of parseImports(readFileSync(f, 'utf8'))) {
      const target = resolve(f, imp.spec);
      if (target) imports.push({ ...imp, to: path.relative(ROOT, target) });
    }
    graph.set(rel, imports);
  }
  return graph;
}

/** Strongly connected components of more than one file (Tarjan), each sorted. */
export function circles(edges) {
  let index = 0;
  const idx = new Map();
  const low = new Map();
  const stack = [];
  const on = new Set();
  const out = [];
  const visit = (v) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) === idx.get(v)) {
      const c = [];
      let w;
      do {
        w = stack.pop();
        on.delete(w);
        c.push(w);
      } while (w !== v);
      if (c.length > 1) out.push(c.sort());
    }
  };
  for (const v of edges.keys()) if (!idx.has(v)) visit(v);
  return out.sort((a, b) => a[0].localeCompare(b[0]));
}

function workspaceOf(file) {
  return Object.entries(LAYERS).find(([, w]) => file.startsWith(`${w.src}/`));
}

function layerOf(file) {
  const ws = workspaceOf(file);
  if (!ws) return null;
  const inner = file.slice(ws[1].src.length + 1);
  const i = ws[1].layers.findIndex((prefixes) => prefixes.some((p) => inner.startsWith(p)));
  return i < 0 ? null : { ws: ws[0], layer: i };
}

/** The module folder of a file (modules/<name>/...), or null. */
function moduleFolder(file) {
  const ws = workspaceOf(file);
  const m = ws && file.slice(ws[1].src.length + 1).match(/^modules\/([^/]+)\//);
  return m ? `${ws[0]}:${m[1]}` : null;
}

export function analyse(graph = buildGraph()) {
  const fileEdges = new Map();
  const folderEdges = new Map();
  const upward = [];
  const unplaced = new Set();
  for (const [from, imports] of graph) {
    fileEdges.set(
      from,
      imports.map((i) => i.to),
    );
    const a = layerOf(from);
    if (!a && workspaceOf(from)?.[1].layers.length) unplaced.add(from);
    for (const { to } of imports) {
      const b = layerOf(to);
      if (a && b && a.ws === b.ws && b.layer < a.layer) upward.push(`${from} -> ${to}`);
      const fa = moduleFolder(from);
      const fb = moduleFolder(to);
      if (fa && fb && fa !== fb) {
        if (!folderEdges.has(fa)) folderEdges.set(fa, new Set());
        folderEdges.get(fa).add(fb);
      }
    }
  }
  const byWorkspace = (cs) =>
    Object.fromEntries(
      Object.keys(LAYERS).map((ws) => [ws, cs.filter((c) => workspaceOf(c[0])?.[0] === ws)]),
    );
  return {
    circles: byWorkspace(circles(fileEdges)),
    folderCircles: circles(new Map([...folderEdges].map(([k, v]) => [k, [...v]]))),
    upward: [...new Set(upward)].sort(),
    unplaced: [...unplaced].sort(),
    deadExports: deadExports(graph),
  };
}

const EXPORT_RE =
  /^export\s+(?:declare\s+)?(?:default\s+)?(?:async\s+)?(?:abstract\s+)?(const|let|var|function\*?|class|interface|type|enum)\s+(\w+)/gm;

/**
 * Exports of the sources that no other source nor test imports (a heuristic: a name taken
 * through `import * as` or a dynamic import counts every export of that file as used; the
 * entry files' and the public surfaces' own `export *` lists are followed).
 */
export function deadExports(graph) {
  const used = new Map();
  const mark = (file, name) => {
    if (!used.has(file)) used.set(file, new Set());
    used.get(file).add(name);
  };
  // Tests count as users too.
  const testFiles = Object.values(LAYERS).flatMap((w) => {
    const wsRoot = path.join(ROOT, w.src, '..');
    return walk(wsRoot).filter((f) => !f.includes('node_modules') && !f.includes('/dist/'));
  });
  const importsOf = new Map(graph);
  for (const f of testFiles) {
    const rel = path.relative(ROOT, f);
    if (importsOf.has(rel)) continue;
    const imps = [];
    for (const imp of parseImports(readFileSync(f, 'utf8'))) {
      const target = resolve(f, imp.spec);
      if (target) imps.push({ ...imp, to: path.relative(ROOT, target) });
    }
    importsOf.set(rel, imps);
  }
  // `export * from` chains: a name asked of a barrel is asked of what it re-exports.
  const starOf = new Map();
  for (const [from, imps] of importsOf)
    for (const i of imps)
      if (i.reexport && i.names.includes('*')) starOf.set(from, [...(starOf.get(from) ?? []), i.to]);
  const ask = (file, name, seen = new Set()) => {
    if (seen.has(file)) return;
    seen.add(file);
    mark(file, name);
    for (const t of starOf.get(file) ?? []) ask(t, name, seen);
  };
  for (const imps of importsOf.values())
    for (const i of imps) if (!(i.reexport && i.names.includes('*'))) for (const n of i.names) ask(i.to, n);
  const dead = [];
  const unneeded = [];
  for (const file of graph.keys()) {
    const u = used.get(file) ?? new Set();
    if (u.has('*')) continue;
    const text = stripComments(readFileSync(path.join(ROOT, file), 'utf8'));
    for (const m of text.matchAll(EXPORT_RE)) {
      const name = m[0].includes('default') ? 'default' : m[2];
      if (u.has(name) || name === 'default') continue;
      // A name used in its own file too is only exported for nothing; one named once is dead.
      const uses = text.match(new RegExp(`\\b${name}\\b`, 'g')).length;
      if (uses === 1) dead.push(`${file}: ${name}`);
      else unneeded.push(`${file}: ${name}`);
    }
  }
  return { dead: dead.sort(), unneeded: unneeded.sort() };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const r = analyse();
  for (const [ws, cs] of Object.entries(r.circles)) {
    console.log(`circles ${ws}: ${cs.length} (${cs.map((c) => c.length).join(', ') || '-'} files)`);
    for (const c of cs) console.log(`  ${c.join(' ')}`);
  }
  console.log(`module folder circles: ${r.folderCircles.length}`);
  for (const c of r.folderCircles) console.log(`  ${c.join(' ')}`);
  console.log(`upward imports: ${r.upward.length}`);
  for (const u of r.upward) console.log(`  ${u}`);
  console.log(`files outside every layer: ${r.unplaced.length}`);
  for (const u of r.unplaced) console.log(`  ${u}`);
  console.log(`dead exports (imported nowhere, used nowhere): ${r.deadExports.dead.length}`);
  for (const d of r.deadExports.dead) console.log(`  ${d}`);
  console.log(`exports used only in their own file: ${r.deadExports.unneeded.length}`);
  if (process.argv.includes('--all')) for (const d of r.deadExports.unneeded) console.log(`  ${d}`);
}
