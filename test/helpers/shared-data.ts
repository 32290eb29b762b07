/**
 * The ../shared corpora and goldens as the test suites read them, and the one place that decides whether they are
 * here. Suites that need them skip cleanly when the folder is absent (a clone of the project alone), so nothing here
 * throws on import. `PALETTE_HIDE_SHARED=1` makes every suite behave as on a clone without `../shared`, so that the
 * clone-only run can be tested on a machine that has it (`.ci/run` runs the suite once that way).
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The shared folder beside the repository (`../shared`). */
export const SHARED = new URL('../../../shared/', import.meta.url);

/** The environment variable that hides `../shared` from the test suites when set to `1`. */
export const HIDE_SHARED_ENV = 'PALETTE_HIDE_SHARED';

/** Whether `../shared` is visible to the suites: present, and not hidden by {@link HIDE_SHARED_ENV}. */
export const HAVE_SHARED: boolean = process.env[HIDE_SHARED_ENV] !== '1' && existsSync(SHARED);

/** The file-system path of `rel` inside `../shared` (`data/…`, `golden/…`); a trailing `/` is kept. */
export function sharedPath(rel = ''): string {
  return fileURLToPath(new URL(rel, SHARED));
}

/**
 * Whether every one of `rels` (paths inside `../shared`) exists and `../shared` is not hidden: the condition of a
 * suite's `describe.skipIf(!haveShared(...))`.
 */
export function haveShared(...rels: string[]): boolean {
  return HAVE_SHARED && rels.every((rel) => existsSync(new URL(rel, SHARED)));
}

const lineCache = new Map<string, readonly string[]>();

/**
 * A data file's lines (path relative to `shared/data/`): UTF-8, split on `\n`, the empty string after a final
 * newline dropped (golden/README.md). Read once per test file and shared by every caller: do not modify.
 */
export function dataLines(path: string): string[] {
  let lines = lineCache.get(path);
  if (lines === undefined) {
    const read = readFileSync(new URL(`data/${path}`, SHARED), 'utf8').split('\n');
    if (read[read.length - 1] === '') read.pop();
    lines = read;
    lineCache.set(path, lines);
  }
  return lines as string[];
}

/** golden/README.md's float tolerance, symmetric: 1e-9 relative to the larger value, 1e-12 absolute near 0. */
export function goldenClose(a: number, b: number): boolean {
  return Math.abs(a - b) <= Math.max(1e-12, 1e-9 * Math.max(Math.abs(a), Math.abs(b)));
}

/**
 * The rows (tab-split fields) of data/sacrebleu-tests/test_sh_expected_scores.tsv whose table (field 0) is one of
 * `tables` and whose text is here (field 10, `data_here`, not empty); none without ../shared.
 */
export function testShRows(present: boolean, tables: readonly string[]): string[][] {
  if (!present) return [];
  return readFileSync(new URL('data/sacrebleu-tests/test_sh_expected_scores.tsv', SHARED), 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => l.split('\t'))
    .filter((f) => tables.includes(f[0]) && (f[10] ?? '') !== '');
}
