/**
 * `palette score --split-sentences t-tags` / `marker:<q>` on every SummEval summary of
 * golden/rouge-score/summeval.ref0.json (16 systems x 100 documents against reference 0, without and with stemming),
 * each written with its sentences marked up (the golden's own `tokpunct` sentences in `<t> … </t>` elements joined by
 * spaces, as CNN/DM abstracts are, or joined by `<q>`): every segment's rouge1, rouge2, rougeL and rougeLsum
 * [P, R, F] equals rouge-score's on the sentences (golden/README.md's tolerance). Skipped without ../shared.
 */
import { readFileSync } from 'node:fs';
import { describe, it } from 'vitest';
import { checkMarkedCase, Q_MARKER, T_TAGS } from './helpers/rouge-markup.js';
import { dataLines, haveShared, sharedPath } from './helpers/shared-data.js';

const GOLDEN = 'golden/rouge-score/summeval.ref0.json';

interface ScoreRecord {
  hyp: string;
  refs: string[];
  config: { use_stemmer: boolean; sentence_splitting: { rule: string } };
  segment_fields: string[];
  segments: unknown[][];
}

const HAVE = haveShared(GOLDEN, 'data/summeval/refs/ref.0.txt');
const RECORDS: ScoreRecord[] = HAVE ? (JSON.parse(readFileSync(sharedPath(GOLDEN), 'utf8')) as { records: ScoreRecord[] }).records : [];

describe.skipIf(!HAVE)('palette score on marked-up SummEval summaries = rouge-score on their sentences (../shared)', () => {
  it.each(RECORDS.map((r): [string, boolean, ScoreRecord] => [r.hyp, r.config.use_stemmer, r]))('%s stem %s', async (_, stem, record) => {
    // The markup is made from the sentences the golden gave rougeLsum.
    if (record.config.sentence_splitting.rule !== 'tokpunct' || record.refs.length !== 1) {
      throw new Error(`${record.hyp}: expected tokpunct sentences and one reference`);
    }
    const c = {
      label: record.hyp,
      refs: dataLines(record.refs[0]),
      hyps: dataLines(record.hyp),
      stem,
      segmentFields: record.segment_fields,
      segments: record.segments,
    };
    for (const markup of [T_TAGS, Q_MARKER]) await checkMarkedCase(c, markup, ['rouge1', 'rouge2', 'rougeL', 'rougeLsum']);
  });
});
