/**
 * GLEU, RIBES and METEOR against every record of ../shared/golden/nltk/gleu-ribes-meteor.json (NLTK 3.8; skipped
 * when ../shared is absent): WMT21 en-de, compare-mt TED and SummEval, one or three references, 13a tokens or the raw
 * line split on whitespace. Every line's value and every corpus value at golden tolerance (1e-9 relative): GLEU's
 * corpus from summed rows, RIBES' as NLTK's mean, METEOR's as the golden's mean of the line values.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Gleu } from '../src/metrics/gleu/gleu.js';
import { Meteor } from '../src/metrics/meteor/meteor.js';
import { sumRows, type Metric } from '../src/metrics/metric.js';
import { Ribes } from '../src/metrics/ribes/ribes.js';
import type { TokenizerName } from '../src/text/tokenizers/index.js';
import { SHARED, dataLines, goldenClose, haveShared } from './helpers/shared-data.js';

interface NltkRecord {
  hyp: string;
  refs: string[];
  config: { tokenization: string };
  corpus: Record<string, number>;
  segment_fields: string[];
  segments: number[][];
}

const FILE = 'golden/nltk/gleu-ribes-meteor.json';
const HAVE = haveShared(FILE);
const records: NltkRecord[] = HAVE ? (JSON.parse(readFileSync(new URL(FILE, SHARED), 'utf8')) as { records: NltkRecord[] }).records : [];

/** The `-tok` a record's tokenization note stands for. */
function tokenizerOf(rec: NltkRecord): TokenizerName {
  if (rec.config.tokenization.startsWith('tokens = sacrebleu.tokenizers.tokenizer_13a')) return '13a';
  if (rec.config.tokenization.startsWith('tokens = line.split()')) return 'none';
  throw new Error(`unknown tokenization: ${rec.config.tokenization}`);
}

const label = (r: NltkRecord): string => `${r.hyp} vs ${r.refs.length} ref(s), ${tokenizerOf(r)}`;

/** Checks one metric's line values (field `field`) and its corpus value against a record. */
function check(metric: Metric, rec: NltkRecord, field: string, corpusKey: string): void {
  const col = rec.segment_fields.indexOf(field);
  const rows = metric.segmentStats(dataLines(rec.hyp), metric.prepareReferences(rec.refs.map((r) => dataLines(r))));
  const w = metric.statsWidth;
  for (const seg of rec.segments) {
    const line = seg[0];
    const got = metric.sentenceScoreFromStats(rows.subarray(w * (line - 1), w * line)).score;
    expect(goldenClose(got, seg[col]), `line ${line}: ${got} vs ${seg[col]}`).toBe(true);
  }
  const corpus = metric.scoreFromStats(sumRows(rows, w)).score;
  expect(goldenClose(corpus, rec.corpus[corpusKey]), `corpus ${corpus} vs ${rec.corpus[corpusKey]}`).toBe(true);
}

describe.skipIf(!HAVE)('NLTK 3.8 GLEU, RIBES, METEOR on golden/nltk/gleu-ribes-meteor.json', () => {
  const withField = (f: string) => records.filter((r) => r.segment_fields.includes(f)).map((r) => [label(r), r] as const);
  it.each(withField('gleu'))('GLEU %s', (_l, rec) => check(new Gleu({ tokenize: tokenizerOf(rec) }), rec, 'gleu', 'gleu'));
  it.each(withField('meteor'))('METEOR %s', (_l, rec) =>
    check(new Meteor({ tokenize: tokenizerOf(rec) }), rec, 'meteor', 'meteor_mean_over_segments'));
  it.each(withField('ribes'))('RIBES %s', (_l, rec) => check(new Ribes({ tokenize: tokenizerOf(rec) }), rec, 'ribes', 'ribes'));
});
