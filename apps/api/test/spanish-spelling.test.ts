// Spanish as Peruvians write it (issue 27, item 9): every text a user reads (screens, messages,
// mails, templates, exports, the seeded menu and lists) carries its accents. This reads every
// string and JSX text of the server, the client and the contracts (comments and identifiers are
// not texts) and fails on a word that is commonly written without its accent.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const SOURCES = ['apps/api/src', 'apps/web/src', 'packages/contracts/src'];

/** Words that only exist with an accent (or a tilde): their bare spelling is always a typo. */
const UNACCENTED = new RegExp(
  `\\b(${[
    'Satisfaccion',
    'Sesion',
    'Paises?',
    'Codigos?',
    'Telefono',
    'Direccion',
    'Contrasena',
    'Configuracion',
    'Informacion',
    'Descripcion',
    'construccion',
    'Region',
    'Numeros?',
    'validos?',
    'validas',
    'maximo',
    'minimos?',
    'minimas?',
    'dias?',
    'Categorias?',
    'Titulos?',
    'Paginas?',
    'Ocurrio',
    'Busqueda',
    'Vehiculos?',
    'Tecnicos?',
    'Garantias?',
    'Accion',
    'Opcion',
    'Invitacion',
    'Calificacion',
    'Ningun',
    'Despues',
    'Tambien',
    'Ano',
    'Auditoria',
    'Ubicacion',
    'Exportacion',
    'Importacion',
    'Notificacion',
    'Organizacion',
    'Estadisticas',
    'Politicas?',
    'Almacen',
    'Deposito',
    'Miercoles',
    'Sabado',
    'Peru',
    'Proxim[oa]',
    'Vacio',
    'Vacias?',
    'Linea',
    'Lineas',
    'Ordenes',
  ].join('|')})\\b`,
  'i',
);

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(full);
    else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) yield full;
  }
}

/** Every text of a file: string and template literals and JSX text, with its line. */
function texts(file: string): { line: number; text: string }[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const out: { line: number; text: string }[] = [];
  const visit = (node: ts.Node) => {
    if (
      ts.isStringLiteral(node) ||
      ts.isNoSubstitutionTemplateLiteral(node) ||
      ts.isTemplateHead(node) ||
      ts.isTemplateMiddle(node) ||
      ts.isTemplateTail(node) ||
      ts.isJsxText(node)
    ) {
      const text = node.text.trim();
      // A lone lowercase token ('region', 'en_linea', 'menu-drawer') is a key or a name, not a
      // text; so is a short upper-case code ('DIA', a concept's unit, as 'UND' or 'PCT').
      const isKey =
        !/\s/.test(text) && (text === text.toLowerCase() || /[_@/]/.test(text) || /^[A-Z]{2,4}$/.test(text));
      if (text && !isKey)
        out.push({ line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1, text });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

describe('Spanish spelling of the user-facing texts', () => {
  it('no text of the server, the client or the contracts writes a common word without its accent', () => {
    const found: string[] = [];
    let read = 0;
    for (const dir of SOURCES)
      for (const file of sourceFiles(path.join(ROOT, dir)))
        for (const { line, text } of texts(file)) {
          read++;
          const m = UNACCENTED.exec(text);
          if (m)
            found.push(
              `${path.relative(ROOT, file)}:${line} "${m[1]}" in ${JSON.stringify(text.slice(0, 80))}`,
            );
        }
    expect(read).toBeGreaterThan(3000);
    expect(found).toEqual([]);
  });

  it('the check itself catches the words of the issue', () => {
    for (const text of [
      'Encuesta de Satisfaccion',
      'Cerrar Sesion',
      'Paises',
      'Codigo',
      'Telefono',
      'Direccion',
      'Contrasena',
      'Configuracion',
      'Informacion',
      'Descripcion',
      'En construccion',
      'no es valido',
      'el valor maximo es 5',
      'Horas por dia',
    ])
      expect(UNACCENTED.test(text), text).toBe(true);
    for (const text of ['Encuesta de Satisfacción', 'Cerrar Sesión', 'Países', 'Código', 'Teléfono', 'Año'])
      expect(UNACCENTED.test(text), text).toBe(false);
  });
});
