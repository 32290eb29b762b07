/**
 * Copied by ./build-cli.mjs into the bundled CLI as dist/bundle/score-command-loader.cjs: it runs the single-file
 * score command (score-command.cjs beside it) through a V8 code cache. bin/palette requires it for `palette score`
 * (the whole run in CommonJS: Node's ES module loader, a dozen modules of its own, is never loaded) and
 * dist/bundle/score-command.js, what the bundled entry imports for the command, hands it on.
 *
 * Parsing that file and compiling the functions a run calls is a large part of a short `palette score`; V8 can keep
 * both, as a code cache the next run hands back to the compiler. Node 20 has no such cache for ES modules, hence the
 * CommonJS file, compiled here as Node compiles one.
 *
 * The cache is written after a run (so that it holds the functions the run compiled) into the user's cache folder,
 * ~/.cache/palette or $XDG_CACHE_HOME/palette, created private to the user: a code cache is code, and a shared folder
 * would let another user hand this process theirs. There is one per installed file and Node version, and it starts
 * with what it was made from (Node version, file, the build's hash of the text, the file's size and modification
 * time), so a cache is never used with another build (V8 itself checks only the length of the text); V8 also
 * refuses one made by another V8 or with other flags. Without a usable cache the run compiles as it would without
 * one and then writes a new one. No cache folder, one that cannot be written, or
 * PALETTE_CODE_CACHE=0: the run goes on without.
 */
'use strict';
const { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } = require('node:fs');
const Module = require('node:module');
const { dirname, join } = require('node:path');
const { Script } = require('node:vm');

const file = join(__dirname, 'score-command.cjs');
// The build writes the file in ASCII (esbuild escapes every other character of code; it replaces those of comments):
// read as Latin-1, it becomes a one-byte string without UTF-8 decoding, a few milliseconds on a megabyte.
const bytes = readFileSync(file);
const source = bytes.toString('latin1');
/** SHA-256 of the file's bytes, written here by the build (the file is hashed once, there, not at every run). */
const BUILT_TEXT_HASH = '@@TEXT_HASH@@';

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
// One cache per installed file and Node version, replaced when the file changes.
const slot = slotName(`${process.version}\0${file}`);
const cacheFile = folder === undefined ? undefined : join(folder, `score-command-${slot}.v8cache`);
// What the cache was made from, its header: the build's hash of the text, and the size and time of the file this run
// reads (a file changed after the build gets a cache of its own).
const { size, mtimeMs } = statSync(file);
const header = Buffer.from(`palette-code-cache\0${process.version}\0${file}\0${BUILT_TEXT_HASH}\0${bytes.length}\0${size}\0${mtimeMs}\n`, 'utf8');
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
const command = loaded.exports;

/** Writes the cache once a run has compiled what it needed, when there was none or V8 refused it. */
function keepCache() {
  if (cacheFile === undefined || (cachedData !== undefined && !script.cachedDataRejected)) return;
  try {
    const temporary = `${cacheFile}.${process.pid}.tmp`;
    writeFileSync(temporary, Buffer.concat([header, script.createCachedData()]), { mode: 0o600 });
    renameSync(temporary, cacheFile);
  } catch {
    // A cache is an optimization: a run that cannot keep one is not an error.
  }
}

/** The score command (src/cli/score-command.ts). */
async function runScoreCommand(argv, io, registry) {
  const status = await command.runScoreCommand(argv, io, registry);
  keepCache();
  return status;
}

/** `palette score` with `argv` (the arguments after `score`) on the process's streams: bin/palette's way in. */
async function main(argv) {
  process.exitCode = await runScoreCommand(argv, command.processIo());
}

module.exports = { runScoreCommand, main };
