/**
 * Downloads into sacreBLEU's cache layout, so that sacreBLEU and Palette share one cache: the download of URL for
 * test set NAME lies at `$SACREBLEU/NAME/raw/NAME.basename(URL)` (`/` in NAME as `_`), and archives are extracted
 * into that `raw/` folder. sacreBLEU takes a non-empty download file as "done", so the file is put there last:
 * fetched into a temporary file, its md5 checked, the archive extracted into a temporary folder whose entries are
 * then renamed into `raw/`, and only then the download renamed into place. A failure leaves no partial entry.
 *
 * `PALETTE_SACREBLEU_MIRROR` (for tests and offline mirrors) fetches `scheme://host/path` from
 * `$PALETTE_SACREBLEU_MIRROR/host/path` instead; the cache names stay those of the real URL.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { InputError } from '../../errors.js';
import { ArchiveError, readTar, readZip, type ArchiveFile } from './archive.js';

/** Where the test sets are cached: `$SACREBLEU`, else `~/.sacrebleu`, as sacreBLEU decides it. */
export function cacheRoot(env: Readonly<Record<string, string | undefined>>): string {
  return env.SACREBLEU ?? join(homedir(), '.sacrebleu');
}

/** The local name of a download (sacreBLEU's `_get_tarball_filename`). */
export function downloadName(testSet: string, url: string): string {
  return `${testSet.replace(/\//g, '_')}.${basename(url)}`;
}

function sourceUrl(url: string, env: Readonly<Record<string, string | undefined>>): string {
  const mirror = env.PALETTE_SACREBLEU_MIRROR;
  if (mirror === undefined || mirror === '') return url;
  return `${mirror.replace(/\/+$/, '')}/${url.replace(/^[a-z]+:\/\//i, '')}`;
}

/** Moves `from`'s entries into `to`, merging folders that exist in both. */
function moveInto(from: string, to: string): void {
  mkdirSync(to, { recursive: true });
  for (const e of readdirSync(from, { withFileTypes: true })) {
    const target = join(to, e.name);
    if (e.isDirectory() && existsSync(target) && statSync(target).isDirectory()) moveInto(join(from, e.name), target);
    else {
      rmSync(target, { recursive: true, force: true });
      renameSync(join(from, e.name), target);
    }
  }
}

function extract(files: readonly ArchiveFile[], into: string): void {
  for (const f of files) {
    const path = join(into, ...f.path.split('/'));
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, f.data);
  }
}

/**
 * Makes sure every download of test set `name` is in the cache (extracted when an archive), fetching what is
 * missing; returns the set's `raw/` folder.
 * @throws InputError naming the set and URL when a download fails, its md5 sum differs or the archive is unreadable.
 */
export async function ensureDownloaded(
  name: string,
  urls: readonly string[],
  md5: readonly string[] | null,
  env: Readonly<Record<string, string | undefined>>,
  log: (message: string) => void,
): Promise<string> {
  const raw = join(cacheRoot(env), name, 'raw');
  mkdirSync(raw, { recursive: true });
  for (let k = 0; k < urls.length; k++) {
    const url = urls[k];
    const dest = join(raw, downloadName(name, url));
    if (existsSync(dest) && statSync(dest).size > 0) continue;
    const from = sourceUrl(url, env);
    const fail = (why: string): InputError =>
      new InputError('E_BAD_INPUT', `cannot download test set ${name} from ${from}: ${why}`);
    log(`Downloading ${from} to ${dest}`);
    let body: Buffer;
    try {
      const response = await fetch(from, { redirect: 'follow' });
      if (!response.ok) throw fail(`HTTP ${response.status} ${response.statusText}`);
      body = Buffer.from(await response.arrayBuffer());
    } catch (err) {
      if (err instanceof InputError) throw err;
      const cause = (err as { cause?: { message?: string } }).cause?.message;
      throw fail(cause ?? (err as Error).message);
    }
    const expected = md5?.[k];
    const got = createHash('md5').update(body).digest('hex');
    if (expected !== undefined && expected !== null && got !== expected) {
      throw fail(`md5 sum of the download is ${got}, expected ${expected}; nothing was cached`);
    }
    const temp = mkdtempSync(join(raw, '.palette-tmp-'));
    try {
      const lower = url.toLowerCase();
      let files: ArchiveFile[] | null = null;
      try {
        if (lower.endsWith('.tar.gz') || lower.endsWith('.tgz')) files = readTar(body);
        else if (lower.endsWith('.zip')) files = readZip(body);
      } catch (err) {
        if (err instanceof ArchiveError || (err as NodeJS.ErrnoException).code?.startsWith('Z_')) {
          throw fail(`the archive cannot be read (${(err as Error).message}); nothing was cached`);
        }
        throw err;
      }
      if (files !== null) {
        log(`Extracting ${dest} to ${raw}`);
        const tree = join(temp, 'tree');
        extract(files, tree);
        moveInto(tree, raw);
      }
      const file = join(temp, 'download');
      writeFileSync(file, body);
      renameSync(file, dest);
    } finally {
      rmSync(temp, { recursive: true, force: true });
    }
  }
  return raw;
}

/** Writes `lines` (each followed by `\n`) to `path` through a temporary file and a rename. */
export function writeLinesAtomic(path: string, lines: readonly string[]): void {
  mkdirSync(dirname(path), { recursive: true });
  const temp = `${path}.palette-tmp-${process.pid}`;
  writeFileSync(temp, lines.map((l) => `${l}\n`).join(''));
  renameSync(temp, path);
}

/** A cached file's lines as sacreBLEU iterates them (split on `\n` only, which is dropped; gunzipped for `.gz`). */
export function readCachedLines(path: string): string[] {
  let bytes = readFileSync(path);
  if (path.endsWith('.gz')) bytes = gunzipSync(bytes);
  const lines = bytes.toString('utf8').split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}
