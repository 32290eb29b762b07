/**
 * The one worker script of the pools (src/pool/worker.ts) loads the code of its pool's kind only: its static
 * imports (type-only ones aside, followed through every file they reach) hold no kind module, no metric registry,
 * no n-best engine and no ORANGE; an n-gram worker's kind reaches none of those either, and an n-best worker's kind
 * reaches the metric registry only on demand (a BLEU-only run never loads it). Every on-demand import names the
 * same module for a built worker (`import()`) and for one run from the sources (`require`). (The bundle's worker
 * script holds every kind's code in one file: test/cli-score-pool-worker.test.ts checks that a worker of the bundle
 * evaluates its own kind's alone.)
 */
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { parse, reach, src } from './helpers/static-imports.js';

/**
 * The `lazyImport(() => import(a), sourceRequire && (() => sourceRequire(b)))` calls of a file: [a, b] each. The
 * CommonJS side must never be a literal `require('…')` call, which a bundler would inline into the worker.
 */
function lazyImports(file: string): [string, string][] {
  const out: [string, string][] = [];
  const specifierOf = (arrow: ts.Expression, callee: 'import' | 'sourceRequire'): string => {
    if (!ts.isArrowFunction(arrow) || !ts.isCallExpression(arrow.body)) throw new Error(`${file}: lazyImport takes two arrows`);
    const call = arrow.body;
    const name = call.expression.kind === ts.SyntaxKind.ImportKeyword ? 'import' : call.expression.getText();
    if (name !== callee || !ts.isStringLiteral(call.arguments[0])) throw new Error(`${file}: expected ${callee}('…')`);
    return call.arguments[0].text;
  };
  const guarded = (arg: ts.Expression): ts.Expression => {
    const ok = ts.isBinaryExpression(arg) && arg.operatorToken.kind === ts.SyntaxKind.AmpersandAmpersandToken &&
      arg.left.getText() === 'sourceRequire' && ts.isParenthesizedExpression(arg.right);
    if (!ok) throw new Error(`${file}: expected sourceRequire && (() => sourceRequire('…'))`);
    return (arg.right as ts.ParenthesizedExpression).expression;
  };
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && node.expression.getText() === 'lazyImport') {
      out.push([specifierOf(node.arguments[0], 'import'), specifierOf(guarded(node.arguments[1]), 'sourceRequire')]);
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
    expect(kinds.map(([esm]) => esm).sort()).toEqual(['./kinds/corpus.js', './kinds/mbr.js', './kinds/mert.js', './kinds/nbest.js', './kinds/ngram.js', './kinds/orange.js', './kinds/pairwise.js']);
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
    // The catalog's registry, which loads the code of the run's metrics alone (from the sources, where a worker
    // cannot import() it, the module that installs every metric is required instead).
    expect(lazy.map(([esm]) => esm).sort()).toEqual(['../../metrics/default-registry.js', '../../node/install.js']);
    for (const [esm, cjs] of lazy) expect(cjs).toBe(esm);
  });

  it('an ORANGE worker reaches no n-best engine', () => {
    expect(has(reach(src('pool/kinds/orange.ts')), /^engine\/nbest\//)).toEqual([]);
  });

  it('a corpus worker reaches the corpus engine, not the n-best engine, ORANGE or every metric\'s code', () => {
    const files = reach(src('pool/kinds/corpus.ts'));
    expect(has(files, /^engine\/corpus\//).length).toBeGreaterThan(0);
    expect(has(files, /^engine\/nbest\/|^meta\/|^metrics\/registry\.ts$|^metrics\/implementations\.ts$/)).toEqual([]);
  });
});
