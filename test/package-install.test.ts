import { spawnSync, type SpawnSyncOptions } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Bleu, corpusScore, readLines } from '../src/index.js';

// What a user of the published package gets: `npm pack` of this checkout, installed into an empty project, then the
// `palette` executable and the README's library example run from there. The pack uses --ignore-scripts so that it
// ships dist/ and build/ as they are (`npm test` builds them first, through `pretest`) instead of rebuilding them
// under the feet of the suites that run bin/palette at the same time.

const root = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name: string; version: string };

// Under `npm test` the running npm exports its settings as npm_config_* (flags given to it: --prefix, --global,
// --loglevel, …), which a child npm reads as its own. The child must act on the temporary project alone, as a user's
// npm would: keep only where the cache, the registry and the user's config files are.
const KEEP_NPM_ENV = new Set([
  'npm_config_cache',
  'npm_config_userconfig',
  'npm_config_globalconfig',
  'npm_config_registry',
]);
const childEnv: NodeJS.ProcessEnv = Object.fromEntries(
  Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith('npm_') || KEEP_NPM_ENV.has(k.toLowerCase())),
);

function sh(cmd: string, args: string[], cwd: string): { status: number | null; stdout: string; stderr: string } {
  const opts: SpawnSyncOptions = {
    cwd,
    env: childEnv,
    encoding: 'utf8',
    timeout: 120_000,
    maxBuffer: 64 * 1024 * 1024,
    // npm and npx are .cmd scripts on Windows, which only a shell runs.
    shell: process.platform === 'win32',
  };
  const r = spawnSync(cmd, args, opts);
  if (r.error) throw r.error;
  return { status: r.status, stdout: String(r.stdout), stderr: String(r.stderr) };
}

function ok(r: { status: number | null; stdout: string; stderr: string }, what: string): string {
  if (r.status !== 0) throw new Error(`${what} exited ${r.status}:\n${r.stderr || r.stdout}`);
  return r.stdout;
}

/** Every file under `dir`, as `/`-separated paths relative to it. */
function walk(dir: string, base = dir): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    return e.isDirectory() ? walk(p, base) : [relative(base, p).split(sep).join('/')];
  });
}

/** The path the example reads with `const <name> = readLines('<path>')`. */
function readPath(example: string, name: string): string {
  const m = new RegExp(`const ${name} = readLines\\('([^']+)'\\)`).exec(example);
  if (!m) throw new Error(`the README's library example has no \`const ${name} = readLines('…')\``);
  return m[1];
}

/** The first ```ts block under the README's "## Library" heading, as written there. */
function readmeLibraryExample(): string {
  const lines = readFileSync(join(root, 'README.md'), 'utf8').split(/\r?\n/);
  const heading = lines.findIndex((l) => /^## Library\s*$/.test(l));
  if (heading < 0) throw new Error('README.md has no "## Library" section');
  const end = lines.findIndex((l, i) => i > heading && /^## /.test(l));
  const section = lines.slice(heading + 1, end < 0 ? undefined : end);
  const open = section.findIndex((l) => /^```ts\s*$/.test(l));
  if (open < 0) throw new Error('README.md "## Library" has no ```ts block');
  const close = section.findIndex((l, i) => i > open && /^```\s*$/.test(l));
  if (close < 0) throw new Error('README.md "## Library" ```ts block is not closed');
  return section.slice(open + 1, close).join('\n') + '\n';
}

let tmp = '';
let unpacked = ''; // the tarball's package/ folder, extracted
let app = ''; // the empty project the tarball is installed into
let tgz = '';

beforeAll(() => {
  if (!existsSync(join(root, 'dist/index.js')) || !existsSync(join(root, 'build/release.wasm'))) {
    throw new Error('dist/ or build/release.wasm is missing: `npm install` (or `npm run build`) builds them');
  }
  tmp = mkdtempSync(join(tmpdir(), 'palette-pack-'));
  const packed = JSON.parse(
    ok(sh('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', tmp], root), 'npm pack'),
  ) as { filename: string }[];
  tgz = join(tmp, packed[0].filename);

  const extract = join(tmp, 'extract');
  mkdirSync(extract);
  ok(sh('tar', ['-xzf', tgz, '-C', extract], tmp), 'tar -xzf');
  unpacked = join(extract, 'package');

  app = join(tmp, 'app');
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'palette-pack-check', private: true }) + '\n');
  ok(
    sh('npm', ['install', tgz, '--prefix', app, '--prefer-offline', '--no-audit', '--no-fund'], app),
    `npm install ${tgz}`,
  );
}, 300_000);

afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe('the npm package', () => {
  it('contains the LICENSE, and no source map whose sources it lacks', () => {
    const files = new Set(walk(unpacked));
    expect(files.has('LICENSE')).toBe(true);
    expect(readFileSync(join(unpacked, 'LICENSE'), 'utf8')).toMatch(/Apache License\s+Version 2\.0/);

    const dangling: string[] = [];
    for (const f of files) {
      if (!f.endsWith('.map')) continue;
      const map = JSON.parse(readFileSync(join(unpacked, f), 'utf8')) as { sources?: string[]; sourceRoot?: string };
      for (const s of map.sources ?? []) {
        const target = posix.normalize(posix.join(posix.dirname(f), map.sourceRoot ?? '', s));
        if (!files.has(target)) dangling.push(`${f} -> ${target}`);
      }
    }
    expect(dangling).toEqual([]);
  });

  it('installs an executable `palette` that reports the package version', () => {
    const r = sh('npx', ['--no', '--', 'palette', '--version'], app);
    expect({ status: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual({
      status: 0,
      stdout: `palette ${pkg.version}\n`,
      stderr: '',
    });
  });

  it("runs the README's library example and prints the BLEU the README states and the source computes", () => {
    const example = readmeLibraryExample();
    expect(example).toContain(`from '${pkg.name}'`);
    // The example reads samples/… relative to its working directory: run it from the installed package, whose
    // samples/ it ships, while the import resolves through the project's node_modules.
    const script = join(app, 'readme-library-example.mjs');
    writeFileSync(script, example);
    const sys = readPath(example, 'hyps');
    const ref = readPath(example, 'refs');
    const installed = join(app, 'node_modules', ...pkg.name.split('/'));
    expect(statSync(join(installed, sys)).isFile()).toBe(true);
    const r = sh(process.execPath, [script], installed);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);

    const expected = corpusScore(new Bleu(), readLines(join(root, sys)), [readLines(join(root, ref))]);
    const bleuLine = r.stdout.split('\n').find((l) => l.startsWith(`${expected.name} `));
    expect(bleuLine).toBe(`${expected.name} ${expected.score} ${expected.verboseScore}`);

    // The README's comment beside the console.log states the result up to an ellipsis ("BLEU 31.18… …").
    const claim = /\/\/\s*(BLEU [\d.]+)…/.exec(example);
    expect(claim, 'the example states its BLEU in a "// BLEU nn.nn…" comment').not.toBeNull();
    expect(bleuLine!.startsWith(claim![1])).toBe(true);
  });

  it('exports the portable core, which scores once handed the kernel bytes the package exports, as the main entry does', () => {
    // What a bundler or browser user does: no file is read by palette-mt/core, the caller supplies build/release.wasm.
    const script = join(app, 'core-entry.mjs');
    writeFileSync(
      script,
      [
        "import { readFileSync } from 'node:fs';",
        "import { fileURLToPath } from 'node:url';",
        "const core = await import('palette-mt/core');",
        "const hyps = ['the cat sat on the mat', 'a dog barked'];",
        "const refs = [['the cat sat on a mat', 'the dog barked']];",
        "try { core.corpusScore(new core.Bleu(), hyps, refs); console.log('no kernels: scored'); }",
        "catch (err) { console.log('no kernels: ' + err.code); }",
        "core.initWasm(readFileSync(fileURLToPath(import.meta.resolve('palette-mt/release.wasm'))));",
        "const bleu = core.corpusScore(new core.Bleu(), hyps, refs).score;",
        // The main entry shares the core's modules; imported only now, so that the core was tried without it.
        "const main = await import('palette-mt');",
        "console.log(bleu > 0 && bleu === main.corpusScore(new main.Bleu(), hyps, refs).score);",
        "console.log(typeof core.readLines, typeof main.readLines);",
      ].join('\n') + '\n',
    );
    const r = sh(process.execPath, [script], app);
    expect({ status: r.status, stderr: r.stderr }).toEqual({ status: 0, stderr: '' });
    expect(r.stdout).toBe('no kernels: E_WASM\ntrue\nundefined function\n');
  });
});
