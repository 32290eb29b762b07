/**
 * The one worker script of the pools (src/pool/worker.ts) loads the code of its pool's kind only: its static
 * imports (type-only ones aside, followed through every file they reach) hold no kind module, no metric registry,
 * no n-best engine and no ORANGE; an n-gram worker's kind reaches none of those either, and an n-best worker's kind
 * reaches the metric registry only on demand (a BLEU-only run never loads it). Every on-demand import names the
 * same module for a built worker (`import()`) and for one run from the sources (`require`).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');
const src = (path: string): string => join(ROOT, 'src', path);

function parse(file: string): ts.SourceFile {
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
function staticImports(file: string): string[] {
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
function reach(file: string): Set<string> {
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

/** The `lazyImport(() => import(a), () => require(b))` calls of a file: [a, b] each. */
function lazyImports(file: string): [string, string][] {
  const out: [string, string][] = [];
  const specifierOf = (arrow: ts.Expression, callee: 'import' | 'require'): string => {
    if (!ts.isArrowFunction(arrow) || !ts.isCallExpression(arrow.body)) throw new Error(`${file}: lazyImport takes two arrows`);
    const call = arrow.body;
    const name = call.expression.kind === ts.SyntaxKind.ImportKeyword ? 'import' : call.expression.getText();
    if (name !== callee || !ts.isStringLiteral(call.arguments[0])) throw new Error(`${file}: expected ${callee}('…')`);
    return call.arguments[0].text;
  };
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && node.expression.getText() === 'lazyImport') {
      out.push([specifierOf(node.arguments[0], 'import'), specifierOf(node.arguments[1], 'require')]);
    }
    ts.forEachChild(node, visit);
  };
  visit(parse(file));
  return out;
}

const has = (files: Set<string>, pattern: RegExp): string[] => [...files].filter((f) => pattern.test(f));

describe('pool worker imports', () => {
  it('the worker script loads no kind statically', () => {
    const files = reach(src('pool/worker.ts'));
    expect(has(files, /^pool\/kinds\/(?!handler\.ts$)|^metrics\/|^engine\/|^meta\/|^node\//)).toEqual([]);
  });

  it('the worker script imports each kind on demand, the same module either way', () => {
    const kinds = lazyImports(src('pool/worker.ts'));
    expect(kinds.map(([esm]) => esm).sort()).toEqual(['./kinds/nbest.js', './kinds/ngram.js', './kinds/orange.js']);
    for (const [esm, cjs] of kinds) expect(cjs).toBe(esm);
  });

  it('an n-gram worker reaches neither the n-best engine, the metrics, ORANGE nor the Node adapter', () => {
    const files = reach(src('pool/kinds/ngram.ts'));
    expect(has(files, /^metrics\/|^engine\/|^meta\/|^node\//)).toEqual([]);
  });

  it('an n-best worker loads the metric registry and the Node adapter only on demand', () => {
    const files = reach(src('pool/kinds/nbest.ts'));
    expect(has(files, /^metrics\/registry\.ts$|^node\/|^meta\//)).toEqual([]);
    const lazy = lazyImports(src('pool/kinds/nbest.ts'));
    expect(lazy.map(([esm]) => esm).sort()).toEqual(['../../metrics/registry.js', '../../node/install.js']);
    for (const [esm, cjs] of lazy) expect(cjs).toBe(esm);
  });

  it('an ORANGE worker reaches no n-best engine', () => {
    expect(has(reach(src('pool/kinds/orange.ts')), /^engine\/nbest\//)).toEqual([]);
  });
});
