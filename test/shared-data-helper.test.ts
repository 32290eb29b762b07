/**
 * One place decides whether ../shared is here: test/helpers/shared-data.ts. A suite that builds its own path to the
 * folder (a relative `'../shared/…'` literal, which depends on the cwd, or `'..', 'shared'` segments) or asks
 * `existsSync` about it ignores PALETTE_HIDE_SHARED, and on a clone without ../shared it reads a missing file
 * instead of skipping. So:
 * - every script under test/ is parsed as TypeScript and must build such paths only from the helper's `SHARED` /
 *   `sharedPath` and decide presence only through `HAVE_SHARED` / `haveShared` (prose in comments and suite titles
 *   that mention ../shared is fine); the scan is first run on snippets of the forms it must and must not report;
 * - the helper itself, loaded in a child process from a copy placed beside a made-up shared folder (and beside none),
 *   sees the folder and its files, and sees nothing when PALETTE_HIDE_SHARED=1, nor does the real helper.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { HIDE_SHARED_ENV, sharedPath } from './helpers/shared-data.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const HELPER = 'test/helpers/shared-data.ts';

/** The helper's exports that carry a location inside ../shared. */
const LOCATION_NAMES = ['SHARED', 'sharedPath'];
/** `'../shared/…'`, `'../../shared'`, `` `${ROOT}/../shared/…` ``: a path to the folder relative to something else. */
const RELATIVE_SHARED = /^\/?(?:\.\/)?(?:\.\.\/)+shared(?:\/|$)/;
/** `'shared'`, `'shared/data'`: the folder as a path segment, as in `resolve(ROOT, '..', 'shared', 'data')`. */
const SHARED_SEGMENT = /^shared(?:\/|$)/;
/** The calls that decide whether a path exists. */
const PRESENCE_CALLS = new Set(['existsSync', 'accessSync']);
/** String methods whose argument is text to look for, not a path (`line.includes('../shared')`). */
const NEEDLE_METHODS = new Set(['includes', 'indexOf', 'lastIndexOf', 'startsWith', 'endsWith', 'split']);

/** The text of a string literal or a literal part of a template; undefined for any other node. */
function literalText(node: ts.Node): string | undefined {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) return node.text;
  return undefined;
}

/** Whether `node` is a literal path into the shared folder (and not text searched for in a string). */
function isSharedLiteral(node: ts.Node): boolean {
  const text = literalText(node);
  if (text === undefined || !(RELATIVE_SHARED.test(text) || SHARED_SEGMENT.test(text))) return false;
  const call = node.parent;
  const needle =
    ts.isCallExpression(call) &&
    ts.isPropertyAccessExpression(call.expression) &&
    NEEDLE_METHODS.has(call.expression.name.text) &&
    call.arguments.some((a) => a === node);
  // A bare word as an object property's value is an option (`streams: 'shared'`), not a path segment.
  let value: ts.Node = node;
  while (ts.isAsExpression(value.parent) || ts.isSatisfiesExpression(value.parent) || ts.isParenthesizedExpression(value.parent)) {
    value = value.parent;
  }
  const optionValue = !text.includes('/') && ts.isPropertyAssignment(value.parent) && value.parent.initializer === value;
  return !needle && !optionValue;
}

/** Whether `node` contains one of `names` as an identifier, or a path literal into the shared folder. */
function mentions(node: ts.Node, names: ReadonlySet<string>): boolean {
  if ((ts.isIdentifier(node) && names.has(node.text)) || isSharedLiteral(node)) return true;
  return ts.forEachChild(node, (child) => mentions(child, names) || undefined) ?? false;
}

/**
 * Where `text` (a TypeScript source) builds its own path to ../shared or decides its presence without the helper:
 * `file:line: what` for each path literal into the folder, and for each `existsSync`/`accessSync` whose argument
 * comes from the helper's location (`SHARED`, `sharedPath`) or such a literal, directly or through the variables
 * and functions defined from them.
 */
function sharedPathViolations(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const line = (node: ts.Node): number => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
  const definitions: [string, ts.Node][] = [];
  const literals: ts.Node[] = [];
  const calls: ts.CallExpression[] = [];
  const walk = (node: ts.Node): void => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) {
      definitions.push([node.name.text, node.initializer]);
    } else if (ts.isFunctionDeclaration(node) && node.name && node.body) {
      definitions.push([node.name.text, node.body]);
    } else if (ts.isCallExpression(node)) {
      const callee = ts.isPropertyAccessExpression(node.expression) ? node.expression.name : node.expression;
      if (ts.isIdentifier(callee) && PRESENCE_CALLS.has(callee.text)) calls.push(node);
    } else if (isSharedLiteral(node)) {
      literals.push(node);
    }
    ts.forEachChild(node, walk);
  };
  walk(source);
  // Names whose value is (or is built from) a location in ../shared, to a fixed point: `const D = sharedPath('x')`,
  // `const F = join(D, 'y')` and `existsSync(F)` is the same decision as `existsSync(sharedPath('x/y'))`.
  const located = new Set(LOCATION_NAMES);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [name, value] of definitions) {
      if (!located.has(name) && mentions(value, located)) {
        located.add(name);
        grew = true;
      }
    }
  }
  const found = literals.map((l) => `${file}:${line(l)}: path literal '${literalText(l)}' (build it with SHARED or sharedPath)`);
  for (const call of calls) {
    if (call.arguments.some((a) => mentions(a, located))) {
      found.push(`${file}:${line(call)}: ${call.expression.getText(source)} on a path in ../shared (decide it with haveShared)`);
    }
  }
  return found;
}

/** The scripts under `dir`, as paths relative to the repository root. */
function scripts(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) return scripts(rel);
    return /\.(?:[cm]?ts|[cm]?js)$/.test(e.name) ? [rel] : [];
  });
}

describe('the one-helper rule for ../shared', () => {
  it.each([
    ['a URL relative to the test file', "const WMT17 = new URL('../../shared/data/sacrebleu-tests/wmt17-en-de/', import.meta.url);"],
    ['a path relative to the cwd', "const WMT17 = '../shared/data/sacrebleu-tests/wmt17-en-de';"],
    ['path segments', "const DATA = resolve(ROOT, '..', 'shared', 'data');"],
    ['a template', 'const p = `${ROOT}/../shared/golden/edge/`;'],
    ['existsSync on a URL in SHARED', "const HAVE = existsSync(new URL('golden/rouge155/sl2003.json', SHARED));"],
    ['existsSync on a sharedPath', "if (fs.existsSync(sharedPath('golden/x.json'))) run();"],
    ['existsSync through variables', "const D = sharedPath('data/');\nconst F = join(D, 'x');\nconst HAVE = existsSync(F);"],
    ['existsSync through a function', "function data(rel) {\n  return join(sharedPath(), 'data', rel);\n}\nexistsSync(data('x'));"],
  ])('reports %s', (_what, code) => {
    expect(sharedPathViolations('t.ts', code)).toHaveLength(1);
  });

  it('reports each offending line by number', () => {
    const code = "const A = '../shared/a';\nconst B = haveShared('b');\nconst C = existsSync(new URL('c', SHARED));";
    expect(sharedPathViolations('t.ts', code).map((v) => v.split(': ')[0])).toEqual(['t.ts:1', 't.ts:3']);
  });

  it('leaves prose, suite titles, the helper and other paths alone', () => {
    const code = [
      "const options = { restarts: 3, streams: 'shared' as const };",
      "const o = { streams: 'shared' };",
      '// Reads ../shared/data/joshua-bn-en; skipped when ../shared is absent.',
      '/** ../shared relative to the repository root, see "../shared/golden/README.md". */',
      "import { SHARED, haveShared, sharedPath } from './helpers/shared-data.js';",
      "const HAVE = haveShared('golden/tercom/tercom.json', 'data/wmt21-news-en-de/');",
      "const GOLDEN = new URL('golden/tercom/tercom.json', SHARED);",
      "const refs = sharedPath('data/joshua-bn-en/reference.en.0');",
      "describe.skipIf(!HAVE)('tercom goldens (../shared/golden/tercom/tercom.json)', () => {});",
      "it('shared chunks live in a SharedArrayBuffer', () => expect(existsSync(join(dir, 'out'))).toBe(false));",
      "const out = join(tmpdir(), 'shared-out'); existsSync(out);",
      "for (const b of blocks) expect(b.lines.filter((l) => l.includes('../shared'))).toEqual([]);",
    ].join('\n');
    expect(sharedPathViolations('t.ts', code)).toEqual([]);
  });

  it('holds in every script under test/ but the helper', () => {
    const files = scripts('test').filter((f) => f !== HELPER);
    expect(files).toContain('test/text-scanners-wmt.test.ts');
    expect(files).toContain('test/fixtures/bleu/golden.ts');
    const found = files.flatMap((f) => sharedPathViolations(f, readFileSync(join(ROOT, f), 'utf8')));
    expect(found).toEqual([]);
  });
});

describe(`${HIDE_SHARED_ENV}=1 hides ../shared from the helper`, () => {
  const tmp = mkdtempSync(join(tmpdir(), 'palette-shared-helper-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));
  // Copies of the helper in an ES-module repository beside a shared folder of the real name, and beside none.
  const name = basename(sharedPath());
  const copies: Record<'beside' | 'alone', string> = { beside: '', alone: '' };
  for (const layout of ['beside', 'alone'] as const) {
    const helpers = join(tmp, layout, 'repo', 'test', 'helpers');
    mkdirSync(helpers, { recursive: true });
    writeFileSync(join(tmp, layout, 'repo', 'package.json'), '{ "type": "module" }\n');
    copies[layout] = join(helpers, 'shared-data.ts');
    copyFileSync(join(ROOT, HELPER), copies[layout]);
  }
  mkdirSync(join(tmp, 'beside', name, 'golden'), { recursive: true });
  writeFileSync(join(tmp, 'beside', name, 'golden', 'README.md'), 'goldens\n');

  /** What the real helper and both copies decide, in a fresh Node process with `hide` as the variable's value. */
  function decisions(hide: string | undefined): Record<string, unknown> {
    const load = (path: string): string => `await import(${JSON.stringify(pathToFileURL(path).href)})`;
    const code = [
      `const real = ${load(join(ROOT, HELPER))};`,
      `const beside = ${load(copies.beside)};`,
      `const alone = ${load(copies.alone)};`,
      'console.log(JSON.stringify({',
      '  real: real.HAVE_SHARED,',
      '  beside: beside.HAVE_SHARED,',
      "  besideReadme: beside.haveShared('golden/README.md'),",
      "  besideMissing: beside.haveShared('golden/README.md', 'golden/none.json'),",
      "  besidePath: beside.sharedPath('data/x.txt'),",
      '  alone: alone.HAVE_SHARED,',
      '  aloneNothing: alone.haveShared(),',
      '}));',
    ].join('\n');
    const env = { ...process.env };
    delete env[HIDE_SHARED_ENV];
    if (hide !== undefined) env[HIDE_SHARED_ENV] = hide;
    const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
      cwd: ROOT,
      env,
      encoding: 'utf8',
    });
    return JSON.parse(out) as Record<string, unknown>;
  }

  it('unset: the folder and its files are seen where they are, and nothing where there is none', () => {
    expect(decisions(undefined)).toMatchObject({
      beside: true,
      besideReadme: true,
      besideMissing: false,
      besidePath: join(tmp, 'beside', name, 'data', 'x.txt'),
      alone: false,
      aloneNothing: false,
    });
  });

  it('set to 1: HAVE_SHARED and haveShared are false, for the real helper too; paths are unchanged', () => {
    expect(decisions('1')).toEqual({
      real: false,
      beside: false,
      besideReadme: false,
      besideMissing: false,
      besidePath: join(tmp, 'beside', name, 'data', 'x.txt'),
      alone: false,
      aloneNothing: false,
    });
  });
});
