/**
 * The structure of src/ that nobody should have to remember:
 * - the import rules of .dependency-cruiser.cjs (one-way layers, the portable core, Node only in the adapters, no
 *   cycles) hold, checked by dependency-cruiser itself — and the rules are shown to catch each kind of offence on a
 *   small made-up tree;
 * - no `X.ts` sits beside a folder `X/` (a module and its parts live in one folder);
 * - every repository path a code comment names in src/, bench/ and scripts/ exists (test/helpers/comment-paths.ts
 *   says what counts as a path).
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cruise, type ICruiseOptions, type ICruiseResult } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commentPaths, pathExists } from './helpers/comment-paths.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CONFIG = join(ROOT, '.dependency-cruiser.cjs');

/** `rule: from → to` for every violation of a cruise of `dirs` under `baseDir` with the repository's rules. */
async function violations(baseDir: string, dirs: string[], options: ICruiseOptions): Promise<string[]> {
  const result = await cruise(dirs, { ...options, baseDir });
  const output = result.output as ICruiseResult;
  return output.summary.violations
    .map((v) => `${v.rule.name}: ${v.from} → ${v.to}${v.cycle ? ` (cycle ${v.cycle.map((c) => c.name).join(' → ')})` : ''}`)
    .sort();
}

/** Every file under `dir` (repository-relative, `/`-separated). */
function filesUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const path = `${dir}/${e.name}`;
    return e.isDirectory() ? filesUnder(path) : [path];
  });
}

/** Every `X.ts` of the tree under `dir` beside a folder `X/`. */
function besideFolders(dir: string): string[] {
  const entries = readdirSync(dir, { withFileTypes: true });
  const folders = new Set(entries.filter((e) => e.isDirectory()).map((e) => e.name));
  return entries.flatMap((e) => {
    if (e.isDirectory()) return besideFolders(join(dir, e.name));
    return e.name.endsWith('.ts') && folders.has(e.name.slice(0, -3)) ? [join(dir, e.name)] : [];
  });
}

describe('import rules (dependency-cruiser)', () => {
  let options: ICruiseOptions;
  beforeAll(async () => {
    options = await extractDepcruiseOptions(CONFIG);
  });

  it('src/ breaks none', async () => {
    expect(await violations(ROOT, ['src'], options)).toEqual([]);
  });

  describe('catch each kind of offence', () => {
    let tree: string;
    /** The made-up tree: path → source. Every import not named in `expected` below is allowed. */
    const files: Record<string, string> = {
      'src/errors.ts': 'export class E extends Error {}\n',
      'src/text/a.ts': "import { m } from '../metrics/m.js';\nexport const a = m;\n",
      'src/text/b.ts': "import { E } from '../errors.js';\nexport const b = new E();\n",
      'src/text/t.ts': "import { z } from '../extra/z.js';\nexport const t = z;\n",
      'src/corpus/k.ts': "import type { M } from '../metrics/m.js';\nexport const k: M | null = null;\n",
      'src/wasm/w.ts': "import { readFileSync } from 'node:fs';\nexport const w = readFileSync;\n",
      'src/metrics/m.ts': "import { b } from '../text/b.js';\nexport type M = number;\nexport const m = b;\n",
      'src/metrics/dev.ts': "import fc from 'fast-check';\nexport const dev = fc;\n",
      'src/metrics/missing.ts': "import { nope } from './nope.js';\nexport const missing = nope;\n",
      'src/engine/e.ts': "import { Piscina } from 'piscina';\nexport const e = Piscina;\n",
      'src/meta/x.ts': "import { y } from './y.js';\nexport type X = number;\nexport const x = y;\n",
      'src/meta/y.ts': "import type { X } from './x.js';\nexport const y: X = 1;\n",
      'src/report/r.ts': "import { index } from '../index.js';\nexport const r = index;\n",
      'src/node/n.ts': "import { c } from '../cli/c.js';\nexport const n = c;\n",
      'src/pool/p.ts': "import { n2 } from '../node/n2.js';\nimport { Piscina } from 'piscina';\nexport const p = [n2, Piscina];\n",
      'src/node/n2.ts': "import { readFileSync } from 'node:fs';\nimport { m } from '../metrics/m.js';\nexport const n2 = [m, readFileSync];\n",
      'src/cli/c.ts': "import { n2 } from '../node/n2.js';\nimport { p } from '../pool/p.js';\nexport const c = [n2, p];\n",
      'src/extra/z.ts': "import { E } from '../errors.js';\nexport const z = E;\n",
      'src/core.ts': "import { m } from './metrics/m.js';\nimport { n2 } from './node/n2.js';\nexport const core = [m, n2];\n",
      'src/index.ts': "import { core } from './core.js';\nimport { c } from './cli/c.js';\nexport const index = [core, c];\n",
    };

    beforeAll(() => {
      tree = mkdtempSync(join(tmpdir(), 'palette-layering-'));
      for (const [path, text] of Object.entries(files)) {
        mkdirSync(dirname(join(tree, path)), { recursive: true });
        writeFileSync(join(tree, path), text);
      }
      writeFileSync(
        join(tree, 'package.json'),
        JSON.stringify({ name: 'made-up', dependencies: { piscina: '*' }, devDependencies: { 'fast-check': '*' } }),
      );
      symlinkSync(join(ROOT, 'node_modules'), join(tree, 'node_modules'), 'dir');
    });
    afterAll(() => rmSync(tree, { recursive: true, force: true }));

    it('each offence once, and nothing that is allowed', async () => {
      const found = await violations(tree, ['src'], options);
      // Packages resolve through the node_modules link, to a path that is not the same on every machine.
      const normalized = found.map((v) => v.replace(/→ \S*node_modules\/([^/]+)\/\S*/, '→ $1'));
      expect(normalized).toEqual(
        [
          'layer-text: src/text/a.ts → src/metrics/m.ts',
          'layer-corpus: src/corpus/k.ts → src/metrics/m.ts',
          'layer-analysis: src/report/r.ts → src/index.ts',
          'layer-adapters: src/node/n.ts → src/cli/c.ts',
          'core-entry-portable: src/core.ts → src/node/n2.ts',
          'unlayered-source: src/extra/z.ts → src/errors.ts',
          'unlayered-target: src/text/t.ts → src/extra/z.ts',
          'node-builtins-in-adapters-only: src/wasm/w.ts → fs',
          'piscina-in-adapters-only: src/engine/e.ts → piscina',
          'no-circular: src/meta/x.ts → src/meta/y.ts (cycle src/meta/y.ts → src/meta/x.ts)',
          'no-dev-dependencies-in-src: src/metrics/dev.ts → fast-check',
          'not-to-unresolvable: src/metrics/missing.ts → ./nope.js',
        ].sort(),
      );
    });
  });
});

describe('no X.ts beside a folder X/', () => {
  it('the check finds one', () => {
    const tree = mkdtempSync(join(tmpdir(), 'palette-beside-'));
    try {
      mkdirSync(join(tree, 'a/nbest'), { recursive: true });
      writeFileSync(join(tree, 'a/nbest.ts'), '');
      writeFileSync(join(tree, 'a/nbest/run.ts'), '');
      writeFileSync(join(tree, 'a/other.ts'), '');
      mkdirSync(join(tree, 'b'));
      writeFileSync(join(tree, 'b.js'), '');
      expect(besideFolders(tree).map((f) => relative(tree, f).split(sep).join('/'))).toEqual(['a/nbest.ts']);
    } finally {
      rmSync(tree, { recursive: true, force: true });
    }
  });

  it('src/ has none', () => {
    expect(besideFolders(join(ROOT, 'src')).map((f) => relative(ROOT, f).split(sep).join('/'))).toEqual([]);
  });
});

describe('comments name only files that exist', () => {
  it('the matcher takes paths and leaves prose, patterns, URLs and other repositories alone', () => {
    const text = [
      '/**',
      ' * Rows as src/engine/nbest/run.ts writes them (see ./rows.ts and ../layered-rows.ts, and src/metrics/).',
      ' * Not paths: test/dev splits, bleu-*.ts, src/metrics/<metric>/, https://github.com/x/y/src/a.ts,',
      ' * nltk/test/bleu.py, the data beside the repository (../../../../outside/x.txt).',
      ' * Run: npx tsx -e "import(\'./bench/text.ts\')". Ends a sentence: src/cli/main.ts.',
      ' */',
      "const s = 'src/not-a-comment.ts'; // but this is: ./rows.js",
    ].join('\n');
    expect(commentPaths(ROOT, 'src/engine/nbest/x.ts', text).map((p) => [p.line, p.path, p.target])).toEqual([
      [2, 'src/engine/nbest/run.ts', 'src/engine/nbest/run.ts'],
      [2, './rows.ts', 'src/engine/nbest/rows.ts'],
      [2, '../layered-rows.ts', 'src/engine/layered-rows.ts'],
      [2, 'src/metrics/', 'src/metrics/'],
      [5, './bench/text.ts', 'bench/text.ts'],
      [5, 'src/cli/main.ts', 'src/cli/main.ts'],
      [7, './rows.js', 'src/engine/nbest/rows.js'],
    ]);
    expect(pathExists(ROOT, 'src/engine/nbest/rows.js')).toBe(true);
    expect(pathExists(ROOT, 'src/engine/nbest/no-such-file.ts')).toBe(false);
  });

  it('in src/, bench/ and scripts/', () => {
    const sources = ['src', 'bench', 'scripts'].flatMap(filesUnder).filter((f) => /\.(ts|[cm]?js)$/.test(f));
    expect(sources).toContain('src/cli/main.ts');
    const missing = sources.flatMap((f) =>
      commentPaths(ROOT, f, readFileSync(join(ROOT, f), 'utf8'))
        .filter((p) => !pathExists(ROOT, p.target))
        .map((p) => `${f}:${p.line}: ${p.path}`),
    );
    expect(missing).toEqual([]);
  });
});
