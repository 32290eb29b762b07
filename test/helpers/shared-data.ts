/**
 * The ../shared corpora and goldens as the test suites read them. Suites that need them skip cleanly when the
 * folder is absent (a clone of the project alone), so nothing here throws on import.
 */
import { readFileSync } from 'node:fs';

/** The shared folder beside the repository (`../shared`). */
export const SHARED = new URL('../../../shared/', import.meta.url);

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
export function testShRows(haveShared: boolean, tables: readonly string[]): string[][] {
  if (!haveShared) return [];
  return readFileSync(new URL('data/sacrebleu-tests/test_sh_expected_scores.tsv', SHARED), 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => l.split('\t'))
    .filter((f) => tables.includes(f[0]) && (f[10] ?? '') !== '');
}
