/**
 * Marked-up summaries for the ROUGE markup tests: the sentences of a tokenized text (the rouge-score goldens' own
 * `tokpunct` split, Palette's `punct`) written as CNN/DM abstracts are (`<t> … </t>` elements joined by spaces) or
 * with a `<q>` separator, and the check of `palette score -sl -f json` on such files against a golden's per-segment
 * rouge-score values.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { run } from '../../src/cli/main.js';
import { splitSentences } from '../../src/text/rouge/sentence-split.js';
import { captureCli } from './cli.js';
import { goldenClose } from './shared-data.js';

/** A way of marking sentences and the `--split-sentences` rule that reads it. */
export interface Markup {
  readonly rule: string;
  readonly mark: (sentences: readonly string[]) => string;
}

/** CNN/DM abstracts' markup: each sentence in a `<t> … </t>` element, the elements joined by spaces. */
export const T_TAGS: Markup = { rule: 't-tags', mark: (s) => s.map((x) => `<t> ${x} </t>`).join(' ') };
/** Sentences joined by `<q>` (the separator some summarizers print). */
export const Q_MARKER: Markup = { rule: 'marker:<q>', mark: (s) => s.join('<q>') };

/** `line` marked up sentence by sentence, its sentences those of the goldens' `tokpunct` rule. */
export function markLine(line: string, markup: Markup): string {
  return markup.mark(splitSentences(line, 'punct'));
}

/** rouge-score's type names (the goldens' segment fields) and the `-m` ids that compute them. */
export const SCORE_TYPE_IDS: Readonly<Record<string, string>> = {
  rouge1: 'rouge-1',
  rouge2: 'rouge-2',
  rouge3: 'rouge-3',
  rouge4: 'rouge-4',
  rougeL: 'rouge-l',
  rougeLsum: 'rouge-lsum',
};

/** One system's lines against one reference, with rouge-score's per-segment values. */
export interface MarkedCase {
  /** Names the case in failure messages. */
  readonly label: string;
  readonly refs: readonly string[];
  readonly hyps: readonly string[];
  readonly stem: boolean;
  readonly segmentFields: readonly string[];
  /** Row `i` is that of `hyps[i]`: the fields named by `segmentFields` (the golden's line first, each rouge type a [P, R, F]). */
  readonly segments: readonly (readonly unknown[])[];
}

/**
 * Writes the case's lines marked up with `markup`, runs `palette score REF -i HYP -m ID --split-sentences RULE -sl
 * -f json -w 16` once per type of `types` and expects every line's [P, R, F] to be the golden's (golden/README.md's
 * tolerance).
 */
export async function checkMarkedCase(c: MarkedCase, markup: Markup, types: readonly string[]): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'palette-rouge-markup-'));
  try {
    const ref = join(dir, 'ref.txt');
    const hyp = join(dir, 'hyp.txt');
    writeFileSync(ref, c.refs.map((l) => `${markLine(l, markup)}\n`).join(''));
    writeFileSync(hyp, c.hyps.map((l) => `${markLine(l, markup)}\n`).join(''));
    for (const type of types) {
      const argv = ['score', ref, '-i', hyp, '-m', SCORE_TYPE_IDS[type], '--split-sentences', markup.rule];
      const r = await captureCli(run, [...argv, ...(c.stem ? ['--stem'] : []), '-sl', '-f', 'json', '-w', '16']);
      expect(r.code, r.err).toBe(0);
      const rows = r.out.trimEnd().split('\n').map((l) => JSON.parse(l) as { precision: number; recall: number; fmeasure: number });
      expect(rows).toHaveLength(c.segments.length);
      const column = c.segmentFields.indexOf(type);
      expect(column, type).toBeGreaterThan(0);
      rows.forEach((row, i) => {
        const got = [row.precision, row.recall, row.fmeasure];
        const want = c.segments[i][column] as number[];
        if (!got.every((g, k) => goldenClose(g, want[k]))) {
          expect(got, `${c.label} ${markup.rule} ${type} line ${String(c.segments[i][0])}`).toEqual(want);
        }
      });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
