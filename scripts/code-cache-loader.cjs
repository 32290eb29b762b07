/**
 * Copied by ./build-cli.mjs into the bundled CLI once for each of its single CommonJS files, as
 * dist/bundle/<name>-loader.cjs beside dist/bundle/<name>.cjs (the placeholders filled in): it runs that file through
 * a V8 code cache.
 *
 * - score-command and nbest-entry, a command's whole path: bin/palette requires their loaders for `palette score`
 *   and `palette nbest` (the whole run in CommonJS: Node's ES module loader, a dozen modules of its own, is never
 *   loaded), and the ES shims the bundled entry imports for those commands hand on to them. The loader exports the
 *   command's run function (the export named RUN) and `main`.
 * - worker, the pools' worker script: piscina requires this loader in each worker thread (src/pool/task-pool.ts);
 *   it exports what the worker script exports.
 *
 * Parsing such a file and compiling the functions a run calls is a large part of a short run, and of every pool
 * worker's start; V8 can keep both, as a code cache the next run hands back to the compiler. Node 20 has no such
 * cache for ES modules, hence the CommonJS files, compiled here as Node compiles one.
 *
 * The cache is written once a run (a command) or a worker's set-up (a worker, warm-up included) has compiled what it
 * needed, into the user's cache folder, ~/.cache/palette or $XDG_CACHE_HOME/palette, created private to the user: a
 * code cache is code, and a shared folder would let another user hand this process theirs. There is one per
 * installed file and Node version (and per kind of pool for the worker: an n-best worker compiles other functions
 * than an n-gram one), and it starts with what it was made from (Node version, file, the build's hash of the text,
 * the file's size and modification time), so a cache is never used with another build (V8 itself checks only the
 * length of the text); V8 also refuses one made by another V8 or with other flags. Without a usable cache the file
 * compiles as it would without one and a new cache is written. No cache folder, one that cannot be written, or
 * PALETTE_CODE_CACHE=0: no cache.
 */
'use strict';
const { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } = require('node:fs');
const Module = require('node:module');
const { dirname, join } = require('node:path');
const { Script } = require('node:vm');

/** The file this loader runs, beside it (written here by the build). */
const NAME = '@@NAME@@';
/** SHA-256 of the file's bytes, written here by the build (the file is hashed once, there, not at every run). */
const BUILT_TEXT_HASH = '@@TEXT_HASH@@';
/** The command's run function among the file's exports; empty for the worker script. */
const RUN = '@@RUN@@';

const file = join(__dirname, `${NAME}.cjs`);
// The build writes the file in ASCII (esbuild escapes every other character of code; it replaces those of comments):
// read as Latin-1, it becomes a one-byte string without UTF-8 decoding, a few milliseconds on a megabyte.
const bytes = readFileSync(file);
const source = bytes.toString('latin1');

/** The private cache folder, or undefined when there is none to use. */
function cacheFolder() {
  try {
    // $HOME is what os.homedir() answers first; node:os (a module more to load) only without it.
    const home = process.env.HOME || require('node:os').homedir();
    const base = process.env.XDG_CACHE_HOME || join(home, '.cache');
    const folder = join(base, 'palette');
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    const st = statSync(folder);
    // Only a folder of this user that no one else can write.
    if (!st.isDirectory() || (typeof process.getuid === 'function' && st.uid !== process.getuid()) || (st.mode & 0o022) !== 0) return undefined;
    return folder;
  } catch {
    return undefined;
  }
}

const folder = process.env.PALETTE_CODE_CACHE === '0' ? undefined : cacheFolder();
/**
 * 64-bit FNV-1a of a string's UTF-16 code units, as 16 hex digits: names the cache of a file and Node version (no
 * secret to keep, and two slots that collide only take turns at one cache, each refusing the other's by its header).
 * node:crypto would be a dozen modules more to load for every run.
 */
function slotName(text) {
  let h = 0xcbf29ce484222325n;
  for (let i = 0; i < text.length; i++) h = BigInt.asUintN(64, (h ^ BigInt(text.charCodeAt(i))) * 0x100000001b3n);
  return h.toString(16).padStart(16, '0');
}
/** A worker's kind of pool (n-best, n-gram…): the functions its set-up compiled, hence a cache of its own. */
const kind = RUN === '' ? String(require('node:worker_threads').workerData?.kind ?? '') : '';
const label = kind === '' ? NAME : `${NAME}-${kind}`;
// One cache per installed file, Node version (and kind of pool), replaced when the file changes.
const slot = slotName(`${process.version}\0${file}\0${kind}`);
const cacheFile = folder === undefined ? undefined : join(folder, `${label}-${slot}.v8cache`);
// What the cache was made from, its header: the build's hash of the text, and the size and time of the file this run
// reads (a file changed after the build gets a cache of its own).
const { size, mtimeMs } = statSync(file);
const header = Buffer.from(`palette-code-cache\0${process.version}\0${file}\0${kind}\0${BUILT_TEXT_HASH}\0${bytes.length}\0${size}\0${mtimeMs}\n`, 'utf8');
let cachedData;
if (cacheFile !== undefined) {
  try {
    const kept = readFileSync(cacheFile);
    if (kept.length > header.length && kept.subarray(0, header.length).equals(header)) cachedData = kept.subarray(header.length);
  } catch {
    cachedData = undefined;
  }
}

const script = new Script(Module.wrap(source), { filename: file, cachedData });
const loaded = { exports: {} };
script.runInThisContext().call(loaded.exports, loaded.exports, Module.createRequire(file), loaded, file, dirname(file));
const exported = loaded.exports;

/** Writes the cache once the file's functions a run needs are compiled, when there was none or V8 refused it. */
function keepCache() {
  if (cacheFile === undefined || (cachedData !== undefined && !script.cachedDataRejected)) return;
  try {
    // Several workers of one process may write at once: each through a file of its own.
    const thread = RUN === '' ? `.${require('node:worker_threads').threadId}` : '';
    const temporary = `${cacheFile}.${process.pid}${thread}.tmp`;
    writeFileSync(temporary, Buffer.concat([header, script.createCachedData()]), { mode: 0o600 });
    renameSync(temporary, cacheFile);
  } catch {
    // A cache is an optimization: a run that cannot keep one is not an error.
  }
}

if (RUN === '') {
  // The worker script's `ping` settles once the worker is set up (its kind's code loaded and warmed up).
  Promise.resolve(exported.ping).then(keepCache, () => {});
  module.exports = exported;
} else {
  /** The command's run function, then the cache kept. */
  const run = async (...args) => {
    const status = await exported[RUN](...args);
    keepCache();
    return status;
  };
  /**
   * The command with `argv` (the arguments after its name) on the process's streams: bin/palette's way in. Once it
   * has finished (its output files renamed in place, its workers stopped, the cache kept) and the process's streams
   * hold nothing still to be written, the process ends at once with the command's status: Node's own way out takes
   * the environment and the heap down piece by piece first (15-50 ms after a million-candidate n-best run).
   */
  const main = async (argv) => {
    process.exitCode = await run(argv, exported.processIo());
    if (exported.processIoSettled()) process.exit();
  };
  module.exports = { [RUN]: run, main };
}
