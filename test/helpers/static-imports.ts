/**
 * What a file of src/ loads when it is imported: its static imports (type-only ones aside), followed through every
 * file they reach. Tests use it to hold entry points to the modules they need.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

export const ROOT = resolve(import.meta.dirname, '..', '..');
export const src = (path: string): string => join(ROOT, 'src', path);

export function parse(file: string): ts.SourceFile {
  return ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
}

/** The `.ts` file a relative specifier of `from` names (`./x.js` → `./x.ts`); undefined for packages. */
function resolveSpecifier(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const file = resolve(dirname(from), specifier.replace(/\.js$/, '.ts'));
  if (!existsSync(file)) throw new Error(`${relative(ROOT, from)}: ${specifier} does not exist`);
  return file;
}

/** Specifiers a file imports at load time: import and export-from declarations that are not type-only. */
export function staticImports(file: string): string[] {
  const out: string[] = [];
  for (const statement of parse(file).statements) {
    if (ts.isImportDeclaration(statement)) {
      if (statement.importClause?.isTypeOnly) continue;
      const named = statement.importClause?.namedBindings;
      const allTypes =
        statement.importClause !== undefined &&
        statement.importClause.name === undefined &&
        named !== undefined &&
        ts.isNamedImports(named) &&
        named.elements.length > 0 &&
        named.elements.every((e) => e.isTypeOnly);
      if (!allTypes) out.push((statement.moduleSpecifier as ts.StringLiteral).text);
    } else if (ts.isExportDeclaration(statement) && statement.moduleSpecifier !== undefined && !statement.isTypeOnly) {
      out.push((statement.moduleSpecifier as ts.StringLiteral).text);
    }
  }
  return out;
}

/** Every file of src/ a file reaches through static imports, relative to src/ (the file itself included). */
export function reach(file: string): Set<string> {
  const seen = new Set<string>();
  const stack = [file];
  while (stack.length > 0) {
    const f = stack.pop()!;
    const key = relative(src(''), f);
    if (seen.has(key)) continue;
    seen.add(key);
    for (const s of staticImports(f)) {
      const target = resolveSpecifier(f, s);
      if (target !== undefined) stack.push(target);
    }
  }
  return seen;
}

