/**
 * Start-up is most of a short `palette` run, so the CLI's entry loads almost nothing: importing src/cli/main.ts
 * (what bin/palette does before `--version` or `--help` print) reaches no metric, tokenizer, kernel, Node adapter or
 * command module; each command imports its own code when it runs. bin/palette runs the bundled CLI (dist/bundle/,
 * built by `npm run build:ts`) with the pool's worker script bundled beside it (a worker loads a few files, not one
 * per module): a pooled run through it finds that worker and the kernels, with no other file of dist/ there.
 * `palette score` is one file of that bundle, whose metrics other than those a run names are never evaluated.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ROOT, reach, src, staticImports } from './helpers/static-imports.js';
import { run } from '../src/cli/main.js';
import { VERSION } from '../src/version.js';

function capture(): { text: () => string; write: (s: string) => boolean } {
  let out = '';
  return { text: () => out, write: (s: string) => ((out += s), true) };
}

describe('palette start-up', () => {
  it('the CLI entry statically imports only the error types, the version and the exit statuses', () => {
    expect([...reach(src('cli/main.ts'))].sort()).toEqual(['cli/io.ts', 'cli/main.ts', 'cli/report-error.ts', 'errors.ts', 'version.ts']);
  });

  it('palette score loads neither the significance tests nor node:crypto unless a run asks for them', () => {
    // What every `palette score` run loads: its option parser, the command, the Node adapter and the metrics.
    const loaded = new Set([
      ...reach(src('cli/score-command.ts')),
      ...reach(src('cli/score-options.ts')),
      ...reach(src('cli/score.ts')),
      ...reach(src('node/install.ts')),
      ...reach(src('metrics/registry.ts')),
    ]);
    expect([...loaded].filter((f) => /significance|numpy-random|pcg64/.test(f))).toEqual([]);
    expect([...loaded].filter((f) => staticImports(src(f)).some((s) => s === 'node:crypto' || s === 'crypto'))).toEqual([]);
  });

  it('the catalog, the score command and its options import no metric implementation: a run loads those it names', () => {
    // What `palette score` loads before it knows its -m: the entry, the options (the catalog's descriptors), the
    // command, the Node adapter and the registry without the metrics' code.
    const loaded = [...reach(src('cli/main.ts')), ...reach(src('cli/score-command.ts')), ...reach(src('cli/score-options.ts')), ...reach(src('cli/score.ts')),
      ...reach(src('node/install.ts')), ...reach(src('metrics/default-registry.ts'))];
    const implementations = /^metrics\/[a-z0-9-]+\/factory\.ts$|^metrics\/(rouge\/rouge|meteor\/meteor|ter\/ter|ter\/tercom-ter|chrf\/chrf|bleu\/bleu|nist\/nist)\.ts$|^metrics\/implementations\.ts$|^metrics\/registry\.ts$|^text\/rouge\/index\.ts$/;
    expect([...new Set(loaded)].filter((f) => implementations.test(f)).sort()).toEqual([]);
  });

  it('palette score -m bleu (in process) loads BLEU\'s implementation and no other metric\'s', async () => {
    const { METRIC_CATALOG } = await import('../src/metrics/catalog.js');
    const stdout = capture();
    const stderr = capture();
    const io = { stdout, stderr, env: {} } as unknown as Parameters<typeof run>[1];
    const W = join(ROOT, 'samples', 'wmt17-en-de');
    expect(await run(['score', '-r', join(W, 'ref.de'), '-i', join(W, 'sys', 'online-B.0.de'), '-m', 'bleu', '-b'], io)).toBe(0);
    expect(stderr.text()).toBe('');
    expect(Number(stdout.text())).toBeGreaterThan(0);
    expect(METRIC_CATALOG.filter((d) => d.implementation.loaded).map((d) => d.id)).toEqual(['bleu']);
  });

  it('bin/palette score -m bleu loads one file for the command and evaluates no ROUGE, METEOR, TER or chrF code', () => {
    if (!existsSync(join(ROOT, 'dist', 'bundle', 'main.js'))) throw new Error('dist/bundle/ is missing: `npm run build:ts` builds it');
    // V8's coverage (NODE_V8_COVERAGE) names every script the process ran, ES modules, CommonJS files and the file
    // the score command's loader compiles itself with its code cache; the bundle's files keep esbuild's
    // "// dist/<module>" comments, which say what each holds. Code that is in a loaded file but behind a dynamic import
    // sits in a function named after its module ("dist/<module>.js"), which the coverage says ran or not.
    const W = join(ROOT, 'samples', 'wmt17-en-de');
    const score = (metric: string) => {
      const coverage = mkdtempSync(join(tmpdir(), 'palette-coverage-'));
      try {
        const r = spawnSync(process.execPath, [join(ROOT, 'bin', 'palette'),
          'score', '-r', join(W, 'ref.de'), '-i', join(W, 'sys', 'online-B.0.de'), '-m', metric, '-b'],
        { encoding: 'utf8', cwd: ROOT, env: { ...process.env, NODE_V8_COVERAGE: coverage, XDG_CACHE_HOME: join(coverage, 'cache') } });
        expect(r.status, r.stderr).toBe(0);
        const files = new Set<string>();
        const ran = new Map<string, boolean>();
        for (const name of readdirSync(coverage).filter((n) => n.endsWith('.json'))) {
          const report = JSON.parse(readFileSync(join(coverage, name), 'utf8')) as { result: { url: string; functions: { functionName: string; ranges: { count: number }[] }[] }[] };
          for (const script of report.result) {
            const path = script.url.startsWith('file://') ? fileURLToPath(script.url) : script.url;
            if (path.startsWith(join(ROOT, 'dist'))) files.add(path);
            for (const f of script.functions) {
              const m = /^dist\/(\S+)\.js$/.exec(f.functionName);
              if (m !== null) ran.set(m[1], (ran.get(m[1]) ?? false) || f.ranges[0].count > 0);
            }
          }
        }
        const evaluated = new Set([...files].flatMap((f) => [...readFileSync(f, 'utf8').matchAll(/^\/\/ dist\/(\S+)\.js$/gm)].map((m) => m[1]))
          .filter((module) => ran.get(module) ?? true));
        return { score: r.stdout.trim(), files: [...files].map((f) => f.slice(f.lastIndexOf('/') + 1)), evaluated };
      } finally {
        rmSync(coverage, { recursive: true, force: true });
      }
    };
    const bleu = score('bleu');
    expect(Number(bleu.score)).toBeGreaterThan(0);
    // The score command is one file (scripts/build-cli.mjs) and its loader, which bin/palette requires.
    expect(bleu.files.sort()).toEqual(['score-command-loader.cjs', 'score-command.cjs']);
    expect(bleu.evaluated.has('metrics/bleu/bleu')).toBe(true);
    for (const other of ['metrics/rouge/rouge', 'metrics/meteor/meteor', 'metrics/ter/ter', 'metrics/ter/tercom-ter', 'metrics/chrf/chrf', 'text/rouge/index']) {
      expect(bleu.evaluated.has(other), other).toBe(false);
    }
    // The check can fail: a run that names ROUGE-L evaluates ROUGE's class from the same file.
    expect(score('rouge-l').evaluated.has('metrics/rouge/rouge')).toBe(true);
  });

  it('bin/palette score keeps a V8 code cache in a private cache folder, used only with the text it was made from', () => {
    if (!existsSync(join(ROOT, 'dist', 'bundle', 'main.js'))) throw new Error('dist/bundle/ is missing: `npm run build:ts` builds it');
    const home = mkdtempSync(join(tmpdir(), 'palette-code-cache-'));
    try {
      const W = join(ROOT, 'samples', 'wmt17-en-de');
      const score = () => spawnSync(process.execPath, [join(ROOT, 'bin', 'palette'), 'score', '-r', join(W, 'ref.de'), '-i', join(W, 'sys', 'online-B.0.de'), '-m', 'bleu', 'chrf'],
        { encoding: 'utf8', cwd: ROOT, env: { ...process.env, XDG_CACHE_HOME: home } });
      const folder = join(home, 'palette');
      const caches = () => (existsSync(folder) ? readdirSync(folder) : []);
      const first = score();
      expect(first.status, first.stderr).toBe(0);
      expect(caches()).toHaveLength(1);
      const cache = join(folder, caches()[0]);
      expect(statSync(folder).mode & 0o077).toBe(0);
      const made = readFileSync(cache);
      // V8 took it: a second run leaves it as it was, and prints the same.
      const second = score();
      expect(second.stdout).toBe(first.stdout);
      expect(readFileSync(cache).equals(made)).toBe(true);
      // A cache whose text hash is not the file's is not used (V8 would take it: it checks only the text's length) and
      // is replaced: the cache starts with the build's hash of the text, which the loader carries.
      const textHash = /const BUILT_TEXT_HASH = '([0-9a-f]{64})'/.exec(readFileSync(join(ROOT, 'dist', 'bundle', 'score-command-loader.cjs'), 'utf8'))![1];
      const at = made.indexOf(textHash);
      expect(at).toBeGreaterThan(0);
      const foreign = Buffer.from(made);
      foreign[at] ^= 0x01;
      writeFileSync(cache, foreign);
      const third = score();
      expect(third.stdout).toBe(first.stdout);
      expect(readFileSync(cache)[at]).toBe(made[at]);
      // A folder others may write is not used.
      rmSync(folder, { recursive: true, force: true });
      mkdirSync(folder, { mode: 0o777 });
      chmodSync(folder, 0o777);
      const shared = score();
      expect(shared.stdout).toBe(first.stdout);
      expect(caches()).toEqual([]);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  it('bin/palette score, with its code cache, loads no Node built-in that `node -e 0` does not but vm (no ES module loader, crypto, os or stdout stream)', () => {
    if (!existsSync(join(ROOT, 'dist', 'bundle', 'main.js'))) throw new Error('dist/bundle/ is missing: `npm run build:ts` builds it');
    const home = mkdtempSync(join(tmpdir(), 'palette-builtins-'));
    try {
      // Prints, at exit, the built-ins the process loaded (Node's own list), without building process.stderr.
      const probe = join(home, 'probe.cjs');
      writeFileSync(probe, "process.on('exit', () => require('fs').writeSync(2, '\\nLOADED ' + JSON.stringify(process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice(13))) + '\\n'));");
      const loaded = (args: string[]): string[] => {
        const r = spawnSync(process.execPath, ['-r', probe, ...args], { encoding: 'utf8', cwd: ROOT, env: { ...process.env, XDG_CACHE_HOME: home } });
        expect(r.status, r.stderr).toBe(0);
        return JSON.parse(/LOADED (.*)/.exec(r.stderr)![1]) as string[];
      };
      const bare = new Set(loaded(['-e', '0']));
      const W = join(ROOT, 'samples', 'wmt17-en-de');
      const args = [join(ROOT, 'bin', 'palette'), 'score', '-r', join(W, 'ref.de'), '-i', join(W, 'sys', 'online-B.0.de'), '-m', 'bleu'];
      loaded(args); // writes the code cache
      const extra = loaded(args).filter((m) => !bare.has(m));
      expect(extra).toEqual(['vm']);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  it("palette score loads METEOR's 3 MB WordNet table only when METEOR reads its first line", async () => {
    const loaded = new Set([...reach(src('cli/score.ts')), ...reach(src('node/install.ts')), ...reach(src('metrics/registry.ts'))]);
    expect([...loaded].filter((f) => f.startsWith('resources/') && /wordnet-3/.test(f))).toEqual([]);
    const { setWordnetLoader, meteorSynonyms } = await import('../src/metrics/meteor/wordnet.js');
    const { readWordnetTable } = await import('../src/node/wordnet.js');
    let reads = 0;
    setWordnetLoader(() => (reads++, readWordnetTable()));
    try {
      expect(reads).toBe(0);
      expect(meteorSynonyms('large').has('big')).toBe(true);
      meteorSynonyms('cars');
      expect(reads).toBe(1);
    } finally {
      setWordnetLoader(readWordnetTable);
    }
  });

  it('--version and --help print without a registry, and a command still gets the default one', async () => {
    const stdout = capture();
    const stderr = capture();
    const io = { stdout, stderr, env: {} } as unknown as Parameters<typeof run>[1];
    expect(await run(['--version'], io)).toBe(0);
    expect(stdout.text()).toBe(`palette ${VERSION}\n`);
    expect(await run(['score', '--help'], io)).toBe(0);
    expect(stdout.text()).toMatch(/chrf/);
    expect(stderr.text()).toBe('');
  });

  it('bin/palette nbest -j 2 loads one file for the command and one for its worker, each kept as a V8 code cache', () => {
    if (!existsSync(join(ROOT, 'dist', 'bundle', 'main.js'))) throw new Error('dist/bundle/ is missing: `npm run build:ts` builds it');
    const J = join(ROOT, 'samples', 'joshua-bn-en');
    const home = mkdtempSync(join(tmpdir(), 'palette-nbest-cache-'));
    try {
      const nbest = (env: NodeJS.ProcessEnv = {}) => {
        // Tasks of 32 KiB make a pool of the 370 KiB sample.
        const args = ['nbest', '--nbest', join(J, 'output.nbest'), '-r', join(J, 'reference.en.0'), join(J, 'reference.en.1'), '-m', 'bleu', 'rouge-l', '-j', '2', '--task-size', '32768'];
        // A file for the statistics instead of standard output (what the run printed is then read back from it).
        const file = env.PALETTE_NBEST_STATS;
        if (file !== undefined) args.push('--stats', file);
        const r = spawnSync(process.execPath, [join(ROOT, 'bin', 'palette'), ...args], { encoding: 'utf8', cwd: ROOT, env: { ...process.env, XDG_CACHE_HOME: home, ...env } });
        expect(r.status, r.stderr).toBe(0);
        return file === undefined ? r.stdout : readFileSync(file, 'utf8');
      };
      const folder = join(home, 'palette');
      const caches = () => (existsSync(folder) ? readdirSync(folder).sort() : []);
      const first = nbest();
      expect(first.length).toBeGreaterThan(10000);
      // The command's cache, and the n-best worker's (written once it was set up).
      expect(caches().map((c) => c.replace(/-[0-9a-f]{16}\.v8cache$/, ''))).toEqual(['nbest-entry', 'worker-nbest']);
      const made = caches().map((c) => readFileSync(join(folder, c)));
      // The coverage of every thread names the files of dist/ the run loaded.
      const coverage = join(home, 'coverage');
      expect(nbest({ NODE_V8_COVERAGE: coverage })).toBe(first);
      const files = new Set<string>();
      for (const name of readdirSync(coverage)) {
        for (const script of (JSON.parse(readFileSync(join(coverage, name), 'utf8')) as { result: { url: string }[] }).result) {
          const path = script.url.startsWith('file://') ? fileURLToPath(script.url) : script.url;
          if (path.startsWith(join(ROOT, 'dist'))) files.add(path.slice(path.lastIndexOf('/') + 1));
        }
      }
      expect([...files].sort()).toEqual(['nbest-entry-loader.cjs', 'nbest-entry.cjs', 'worker-loader.cjs', 'worker.cjs']);
      // V8 took both caches: they are left as they were.
      expect(caches().map((c) => readFileSync(join(folder, c))).every((b, i) => b.equals(made[i]))).toBe(true);
      // Without a cache, the same bytes.
      expect(nbest({ PALETTE_CODE_CACHE: '0' })).toBe(first);
      // The process ends as soon as the command is done (the loader's process.exit): all of the statistics are out,
      // on standard output (a pipe here) as in the file they are written to with --stats.
      const stats = join(home, 'stats');
      expect(nbest({ PALETTE_NBEST_STATS: stats })).toBe(first);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  it('bin/palette (the bundle) scores an n-best list on two workers with the same bytes as in one thread', () => {
    if (!existsSync(join(ROOT, 'dist', 'bundle', 'main.js'))) throw new Error('dist/bundle/ is missing: `npm run build:ts` builds it');
    const J = join(ROOT, 'samples', 'joshua-bn-en');
    const palette = (...extra: string[]) => {
      const args = ['nbest', '--nbest', join(J, 'output.nbest'), '-r', join(J, 'reference.en.0'), join(J, 'reference.en.1'), '-m', 'bleu', 'rouge-l', ...extra];
      return spawnSync(process.execPath, [join(ROOT, 'bin', 'palette'), ...args], { encoding: 'utf8', cwd: ROOT });
    };
    const one = palette('-j', '1');
    // Tasks of 32 KiB make a pool of the 370 KiB sample.
    const two = palette('-j', '2', '--task-size', '32768');
    expect(one.status, one.stderr).toBe(0);
    expect(two.status, two.stderr).toBe(0);
    expect(one.stdout.length).toBeGreaterThan(10000);
    expect(two.stdout).toBe(one.stdout);

    // The bundle alone (no dist/pool/, no dist/metrics/ …), through its split entry: its workers come from its own
    // worker script.
    const alone = mkdtempSync(join(tmpdir(), 'palette-bundle-alone-'));
    try {
      mkdirSync(join(alone, 'dist'));
      mkdirSync(join(alone, 'bin'));
      cpSync(join(ROOT, 'dist', 'bundle'), join(alone, 'dist', 'bundle'), { recursive: true });
      expect(existsSync(join(alone, 'dist', 'bundle', 'worker-loader.cjs'))).toBe(true);
      symlinkSync(join(ROOT, 'build'), join(alone, 'build'));
      symlinkSync(join(ROOT, 'node_modules'), join(alone, 'node_modules'));
      cpSync(join(ROOT, 'package.json'), join(alone, 'package.json'));
      writeFileSync(join(alone, 'bin', 'palette'), "import { main } from '../dist/bundle/main.js';\nawait main();\n");
      const args = ['nbest', '--nbest', join(J, 'output.nbest'), '-r', join(J, 'reference.en.0'), join(J, 'reference.en.1'), '-m', 'bleu', 'rouge-l'];
      const pooled = spawnSync(process.execPath, [join(alone, 'bin', 'palette'), ...args, '-j', '2', '--task-size', '32768'], { encoding: 'utf8', cwd: alone });
      expect(pooled.status, pooled.stderr).toBe(0);
      expect(pooled.stdout).toBe(one.stdout);
    } finally {
      rmSync(alone, { recursive: true, force: true });
    }
  });
});

