/**
 * Copied by ./build-cli.mjs into the bundled CLI as its score command's module: it runs the single-file score
 * command (a CommonJS file beside it) through a V8 code cache. Parsing that file and compiling the functions a run
 * calls is a large part of a short `palette score`; V8 can keep both, as a code cache the next run hands back to the
 * compiler. Node 20 has no such cache for ES modules, hence the CommonJS file, compiled here as Node compiles one.
 *
 * The cache is written after a run (so that it holds the functions the run compiled) into the user's cache folder,
 * ~/.cache/palette or $XDG_CACHE_HOME/palette, created private to the user: a code cache is code, and a shared folder
 * would let another user hand this process theirs. There is one per installed file and Node version, and it starts
 * with a hash of what it was made from (the build's hash of the text, the file's size and modification time), so a
 * cache is never used with another build (V8 itself checks only the length of the text); V8 also refuses one made by another V8 or with other flags. Without a usable cache the
 * run compiles as it would without one and then writes a new one. No cache folder, one that cannot be written, or
 * PALETTE_CODE_CACHE=0: the run goes on without.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';

const file = fileURLToPath(new URL('./score-command.cjs', import.meta.url));
// The build writes the file in ASCII (esbuild escapes every other character of code; it replaces those of comments):
// read as Latin-1, it becomes a one-byte string without UTF-8 decoding, a few milliseconds on a megabyte.
const bytes = readFileSync(file);
const source = bytes.toString('latin1');
/** SHA-256 of the file's bytes, written here by the build (the file is hashed once, there, not at every run). */
const BUILT_TEXT_HASH = '@@TEXT_HASH@@';

/** The private cache folder, or undefined when there is none to use. */
function cacheFolder() {
  try {
    const base = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
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
// One cache per installed file and Node version, replaced when the file changes: it starts with the SHA-256 of the
// text it was made from.
const sha256 = (...parts) => parts.reduce((h, p) => h.update(p), createHash('sha256')).digest();
const slot = sha256(`${process.version}\0${file}`).toString('hex').slice(0, 32);
const cacheFile = folder === undefined ? undefined : join(folder, `score-command-${slot}.v8cache`);
// What the cache was made from: the build's hash of the text, and the size and time of the file this run reads (a
// file changed after the build gets a cache of its own).
const { size, mtimeMs } = statSync(file);
const textHash = sha256(`${BUILT_TEXT_HASH}\0${bytes.length}\0${size}\0${mtimeMs}`);
let cachedData;
if (cacheFile !== undefined) {
  try {
    const kept = readFileSync(cacheFile);
    if (kept.length > textHash.length && kept.subarray(0, textHash.length).equals(textHash)) cachedData = kept.subarray(textHash.length);
  } catch {
    cachedData = undefined;
  }
}

const script = new Script(Module.wrap(source), { filename: file, cachedData });
const module = { exports: {} };
script.runInThisContext().call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
const command = module.exports;

/** Writes the cache once a run has compiled what it needed, when there was none or V8 refused it. */
function keepCache() {
  if (cacheFile === undefined || (cachedData !== undefined && !script.cachedDataRejected)) return;
  try {
    const temporary = `${cacheFile}.${process.pid}.tmp`;
    writeFileSync(temporary, Buffer.concat([textHash, script.createCachedData()]), { mode: 0o600 });
    renameSync(temporary, cacheFile);
  } catch {
    // A cache is an optimization: a run that cannot keep one is not an error.
  }
}

/** The score command (src/cli/score-command.ts). */
export async function runScoreCommand(argv, io, registry) {
  const status = await command.runScoreCommand(argv, io, registry);
  keepCache();
  return status;
}
