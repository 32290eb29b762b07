/**
 * Bundles the compiled CLI (part of `npm run build:ts`, after tsc has written dist/) into dist/bundle/, which
 * bin/palette runs. Node links an ES module file by file (resolve, read, compile, link), so a short run's start-up
 * is mostly the number of files it loads, then their size:
 *
 * - dist/bundle/main.js: the entry (`--version` and `--help` load nothing else), code-split: each command is a chunk
 *   of its own, loaded when the command runs, sharing chunks with the others.
 * - Single CommonJS files, each compiled with a V8 code cache by a loader beside it (dist/bundle/<name>-loader.cjs,
 *   made from ./code-cache-loader.cjs):
 *   - score-command.cjs: `palette score` (src/cli/score-command.ts) and nbest-entry.cjs: `palette nbest`
 *     (src/cli/nbest/entry.ts). bin/palette requires their loaders for those commands: the whole run is CommonJS,
 *     and Node's ES module loader is never loaded. dist/bundle/score-command.js and nbest-entry.js, what the split
 *     entry's dynamic imports of those commands load, hand on to the same loaders. What a run does not always need
 *     (the metrics' code, queue runs, test sets, significance) is inside the file but evaluated only when first
 *     imported (esbuild keeps such modules behind their dynamic imports), and packages and Node built-ins are
 *     required when the module that imports them is evaluated. Each file holds its own copy of every module it uses,
 *     so nothing of such a path may cross into the split chunks (an error class or a kernel provider of one copy is
 *     not the other's): the entry hands it the arguments and gets an exit status back.
 *   - worker.cjs: the pools' worker script (src/pool/worker.ts), every kind's code inside it, evaluated only for the
 *     kind a pool runs. Every pool of the bundle (src/pool/task-pool.ts) starts its workers from its loader.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = join(ROOT, 'dist/bundle');
const COMMON = { bundle: true, format: 'esm', platform: 'node', target: 'node20', logLevel: 'warning', absWorkingDir: ROOT };

/**
 * The single CommonJS files: the module each is built from, the export the loader's command runs (none: the worker
 * script), the dynamic import of the split entry that loads it instead (an ES shim over the loader), and what it may
 * require when it loads.
 */
const SINGLE = [
  {
    name: 'score-command',
    entry: 'dist/cli/score-command.js',
    run: 'runScoreCommand',
    importedAs: './score-command.js',
    // Only built-ins Node has loaded before any user code runs, or that the loader loads itself: a package required at
    // the top of the file would load with every score run (others are required when their importer is evaluated).
    requiresAtLoad: /^node:(fs|path|url|module|util|os|crypto|vm)$/,
  },
  {
    name: 'nbest-entry',
    entry: 'dist/cli/nbest/entry.js',
    run: 'runNbestEntry',
    importedAs: './nbest/entry.js',
    // The early pool is evaluated when the file loads (it starts a -j N run's workers first): piscina with it.
    requiresAtLoad: /^(node:(fs|path|url|module|util|os|crypto|vm|worker_threads)|piscina)$/,
  },
  {
    name: 'worker',
    entry: 'dist/pool/worker.js',
    run: '',
    importedAs: undefined,
    requiresAtLoad: /^(node:(fs|path|url|module|util|os|crypto|vm|worker_threads)|piscina)$/,
  },
];

/** The split build leaves the entry's imports of the single-file commands to the ES shims written below. */
const singlesApart = {
  name: 'single-files-apart',
  setup(b) {
    b.onResolve({ filter: /\.js$/ }, (args) => {
      const single = SINGLE.find((f) => f.importedAs === args.path);
      return single !== undefined && args.kind === 'dynamic-import' && args.importer === join(ROOT, 'dist/cli/main.js')
        ? { path: `./${single.name}.js`, external: true }
        : undefined;
    });
  },
};

await build({
  ...COMMON,
  entryPoints: ['dist/cli/main.js'],
  entryNames: '[name]',
  splitting: true,
  packages: 'external',
  outdir: OUT,
  plugins: [singlesApart],
});

/**
 * msgpackr inside the single files, from its plain entry (index.js): on Node its package entry is node-index.js,
 * which adds streams and, when it loads, looks for its optional native add-on (msgpackr-extract, through
 * node-gyp-build and detect-libc: a dozen files and child_process, about 9 ms of CPU in every thread that loads it)
 * to speed up unpacking with it. Palette only packs (src/engine/nbest/stats-format.ts): the same Packr, without that
 * search, compiled with the rest of the file from its code cache.
 */
const msgpackrInside = {
  name: 'msgpackr-inside',
  setup(b) {
    b.onResolve({ filter: /^msgpackr$/ }, () => ({ path: join(ROOT, 'node_modules/msgpackr/index.js') }));
  },
};

const loaderTemplate = readFileSync(join(ROOT, 'scripts/code-cache-loader.cjs'), 'utf8');
for (const placeholder of ['@@NAME@@', '@@TEXT_HASH@@', '@@RUN@@']) {
  if (!loaderTemplate.includes(placeholder)) throw new Error(`scripts/code-cache-loader.cjs lost its ${placeholder} placeholder`);
}

for (const single of SINGLE) {
  const cjs = join(OUT, `${single.name}.cjs`);
  // CommonJS, so that it can be compiled with a V8 code cache; `import.meta.url` is the file's URL as in an ES module.
  // `__filename` reads as undefined to the bundled code: the pool's modules take a defined `__filename` for a run
  // from the TypeScript sources, where they `require` the kinds' files (src/pool/lazy-import.ts), and there is no
  // such file beside this one (the banner, not bundled code, still sees the real one).
  await build({
    ...COMMON,
    entryPoints: [single.entry],
    format: 'cjs',
    packages: 'external',
    outfile: cjs,
    plugins: [msgpackrInside],
    define: { 'import.meta.url': '__paletteModuleUrl', __filename: 'undefined' },
    // The banner comes before esbuild's own "use strict", which would then be no directive: the file's code is ES
    // module code, strict, and is run so.
    banner: { js: "'use strict';\nconst __paletteModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
  });
  // esbuild writes code in ASCII (other characters escaped); the characters of the comments it keeps are replaced,
  // so that the loader can read the file as Latin-1. The loader gets the file's hash (what its code cache is made
  // from).
  const ascii = readFileSync(cjs, 'utf8').replace(/[^\x00-\x7f]/g, '?');
  writeFileSync(cjs, ascii);
  const textHash = createHash('sha256').update(readFileSync(cjs)).digest('hex');
  writeFileSync(
    join(OUT, `${single.name}-loader.cjs`),
    loaderTemplate.replace('@@NAME@@', single.name).replace('@@TEXT_HASH@@', textHash).replace('@@RUN@@', single.run),
  );
  if (single.importedAs !== undefined) {
    // The command as the split entry imports it: an ES module handing on to the loader (taken with require, so that
    // the one file is compiled once whichever way a process comes in).
    writeFileSync(
      join(OUT, `${single.name}.js`),
      "import { createRequire } from 'node:module';\n\n" +
        `/** ${single.entry.replace(/^dist\//, 'src/').replace(/\.js$/, '.ts')}, run through ./${single.name}-loader.cjs. */\n` +
        `export const { ${single.run} } = createRequire(import.meta.url)('./${single.name}-loader.cjs');\n`,
    );
  }
  // What the file requires when it loads (see SINGLE).
  const required = [...ascii.matchAll(/^(?:var|const|let) [^\n]*?\brequire\("([^"]+)"\)/gm)]
    .map((m) => m[1])
    .filter((specifier) => !single.requiresAtLoad.test(specifier));
  if (required.length > 0) throw new Error(`dist/bundle/${single.name}.cjs requires ${required.join(', ')} when it loads`);
}
