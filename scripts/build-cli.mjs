/**
 * Bundles the compiled CLI (part of `npm run build:ts`, after tsc has written dist/) into dist/bundle/, which
 * bin/palette runs. Node links an ES module file by file (resolve, read, compile, link), so a short run's start-up
 * is mostly the number of files it loads, then their size:
 *
 * - dist/bundle/main.js and worker.js: the entry (`--version` and `--help` load nothing else) and the pools' worker
 *   script, code-split: each command is a chunk of its own, loaded when the command runs, sharing chunks with the
 *   others.
 * - dist/bundle/score-command.cjs: `palette score` as one file (src/cli/score-command.ts), not split, in CommonJS,
 *   compiled with a V8 code cache by dist/bundle/score-command-loader.cjs (./score-command-loader.cjs), which
 *   bin/palette requires for `palette score`: the whole run is CommonJS, and Node's ES module loader is never loaded.
 *   dist/bundle/score-command.js, what the entry's dynamic import of the score command loads, hands on to it. What a score run does not always need
 *   (the metrics' code, the pool, queue runs, test sets, significance) is inside the file but evaluated only when
 *   first imported (esbuild keeps such modules behind their dynamic imports), and packages and Node built-ins are
 *   required when the module that imports them is evaluated. The file holds its own copy of every module it uses, so
 *   nothing of the score path may cross into the split chunks (an error class or a kernel provider of one copy is
 *   not the other's): the entry hands it the arguments and gets an exit status back.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
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

/**
 * Built-ins that Node has loaded before any user code runs, or that the loader loads itself: the only modules the
 * single file may require when it loads (others, and packages, are required when the module that imports them is
 * evaluated).
 */
const PRELOADED = /^node:(fs|path|url|module|util|os|crypto|vm)$/;

await build({
  ...COMMON,
  entryPoints: ['dist/cli/main.js', 'dist/pool/worker.js'],
  entryNames: '[name]',
  splitting: true,
  packages: 'external',
  outdir: OUT,
  plugins: [scoreCommandApart],
});

// CommonJS, so that it can be compiled with a V8 code cache (./score-command-loader.cjs); `import.meta.url` is the
// file's URL as in an ES module.
await build({
  ...COMMON,
  entryPoints: ['dist/cli/score-command.js'],
  format: 'cjs',
  packages: 'external',
  outfile: join(OUT, 'score-command.cjs'),
  define: { 'import.meta.url': '__paletteModuleUrl' },
  banner: { js: "const __paletteModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
});
// esbuild writes code in ASCII (other characters escaped); the characters of the comments it keeps are replaced, so
// that the loader can read the file as Latin-1. The loader gets the file's hash (what its code cache is made from).
const cjs = join(OUT, 'score-command.cjs');
const ascii = readFileSync(cjs, 'utf8').replace(/[^\x00-\x7f]/g, '?');
writeFileSync(cjs, ascii);
const textHash = createHash('sha256').update(readFileSync(cjs)).digest('hex');
const loader = readFileSync(join(ROOT, 'scripts/score-command-loader.cjs'), 'utf8');
if (!loader.includes('@@TEXT_HASH@@')) throw new Error('scripts/score-command-loader.cjs lost its text-hash placeholder');
writeFileSync(join(OUT, 'score-command-loader.cjs'), loader.replace('@@TEXT_HASH@@', textHash));
// The score command as the split entry imports it: an ES module handing on to the loader (taken with require, so that
// the one file is compiled once whichever way a process comes in).
writeFileSync(
  join(OUT, 'score-command.js'),
  "import { createRequire } from 'node:module';\n\n" +
    "/** The score command (src/cli/score-command.ts), run through ./score-command-loader.cjs. */\n" +
    "export const { runScoreCommand } = createRequire(import.meta.url)('./score-command-loader.cjs');\n",
);

// What the single file requires when it loads: only the built-ins Node has already loaded (a package required at the
// top of the file would load with every score run).
const required = [...readFileSync(join(OUT, 'score-command.cjs'), 'utf8').matchAll(/^(?:var|const|let) [^\n]*?\brequire\("([^"]+)"\)/gm)]
  .map((m) => m[1])
  .filter((specifier) => !PRELOADED.test(specifier));
if (required.length > 0) throw new Error(`dist/bundle/score-command.cjs requires ${required.join(', ')} when it loads`);
