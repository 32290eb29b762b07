/**
 * Bundles the compiled CLI (part of `npm run build:ts`, after tsc has written dist/) into dist/bundle/, which
 * bin/palette runs. Node links an ES module file by file (resolve, read, compile, link), so a short run's start-up
 * is mostly the number of files it loads, then their size:
 *
 * - dist/bundle/main.js and worker.js: the entry (`--version` and `--help` load nothing else) and the pools' worker
 *   script, code-split: each command is a chunk of its own, loaded when the command runs, sharing chunks with the
 *   others.
 * - dist/bundle/score-command.js: `palette score` as one file (src/cli/score-command.ts), not split: the entry's
 *   dynamic import of the score command loads it alone. What a score run does not always need (the metrics' code, the
 *   pool, queue runs, test sets, significance) is inside it but evaluated only when first imported (esbuild keeps
 *   such modules behind their dynamic imports), and packages and Node built-ins are required when the module that
 *   imports them is evaluated instead of imported when the file loads. The file holds its own copy of every module
 *   it uses, so nothing of the score path may cross into the split chunks (an error class or a kernel provider of
 *   one copy is not the other's): the entry hands it the arguments and gets an exit status back.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = join(ROOT, 'dist/bundle');
const COMMON = { bundle: true, format: 'esm', platform: 'node', target: 'node20', logLevel: 'warning', absWorkingDir: ROOT };

/** The split build leaves the entry's import of the score command to the file the second build writes. */
const scoreCommandApart = {
  name: 'score-command-apart',
  setup(b) {
    b.onResolve({ filter: /^\.\/score-command\.js$/ }, (args) =>
      args.kind === 'dynamic-import' && args.importer === join(ROOT, 'dist/cli/main.js')
        ? { path: './score-command.js', external: true }
        : undefined);
  },
};

/** Name of the `require` the single file's banner makes (no module of the bundle declares it). */
const REQUIRE = '__paletteRequire';

/**
 * Built-ins that Node has loaded before any user code runs: importing them costs nothing, and the named imports
 * stay plain bindings (a required module is wrapped in an object with a getter for each of its exports).
 */
const PRELOADED = /^node:(fs|path|url|module|util)$/;

/**
 * Packages and the other Node built-ins as CommonJS modules of the bundle that `require` them: esbuild wraps each and calls it
 * when the module importing it is evaluated, where an external `import` would be hoisted to the top of the single
 * file and load (BullMQ, ioredis, piscina …) with every score run.
 */
const requireWhenEvaluated = {
  name: 'require-when-evaluated',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) =>
      args.kind === 'import-statement' && args.namespace === 'file' && !PRELOADED.test(args.path)
        ? { path: args.path, namespace: 'required' }
        : undefined);
    b.onLoad({ filter: /.*/, namespace: 'required' }, (args) => ({
      contents: `module.exports = ${REQUIRE}(${JSON.stringify(args.path)});`,
      loader: 'js',
    }));
  },
};

await build({
  ...COMMON,
  entryPoints: ['dist/cli/main.js', 'dist/pool/worker.js'],
  entryNames: '[name]',
  splitting: true,
  packages: 'external',
  outdir: OUT,
  plugins: [scoreCommandApart],
});

await build({
  ...COMMON,
  entryPoints: ['dist/cli/score-command.js'],
  outfile: join(OUT, 'score-command.js'),
  banner: { js: `import { createRequire as __paletteCreateRequire } from 'node:module';\nconst ${REQUIRE} = __paletteCreateRequire(import.meta.url);` },
  plugins: [requireWhenEvaluated],
});

// What the single file imports when it loads: only the built-ins Node has already loaded (an import the plugin did
// not turn into a require, e.g. a new form of re-export, would load its package with every score run).
const hoisted = [...readFileSync(join(OUT, 'score-command.js'), 'utf8').matchAll(/^import\b[^;]*?from\s*["']([^"']+)["']/gm)]
  .map((m) => m[1])
  .filter((specifier) => !PRELOADED.test(specifier));
if (hoisted.length > 0) throw new Error(`dist/bundle/score-command.js imports ${hoisted.join(', ')} when it loads`);
