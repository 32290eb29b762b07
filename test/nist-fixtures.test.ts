/**
 * NIST against its oracles on the extracts in test/fixtures/nist (see its SOURCE.md):
 * - mteval-v13a.pl / mteval-v14.pl NIST on NLTK's wmt15_eval SGML (corpus, individual and cumulative scores per
 *   order, every segment's score and word count), compared as mteval prints them: 4 decimals (abs 5e-5);
 * - NLTK 3.8 `corpus_nist` (n = 1..9) and `sentence_nist` (n = 5) on nltk-wmt15-eval and compare-mt TED, relative
 *   1e-9; NLTK's ZeroDivisionError must come out as NaN.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { Nist } from '../src/metrics/nist/nist.js';
import { sumRows } from '../src/metrics/metric.js';

const FIXTURES = new URL('./fixtures/nist/', import.meta.url);

function readJsonlGz<T>(name: string): T[] {
  return gunzipSync(readFileSync(new URL(name, FIXTURES)))
    .toString('utf8')
    .split('\n')
    .filter((l) => l.length > 0)
    .map((l) => JSON.parse(l) as T);
}

function close(got: number, want: number): boolean {
  return Math.abs(got - want) <= Math.max(1e-9 * Math.abs(want), 1e-12);
}

/** mteval prints 4 decimals: equal when within half a unit of the last printed digit. */
function asPrinted(got: number, want: number): boolean {
  return Math.abs(got - want) <= 5e-5;
}

describe('mteval NIST on nltk-wmt15-eval SGML (golden/moses/mteval.nltk-wmt15-eval.json)', () => {
  interface MtevalRec {
    tool: string;
    args: string[];
    corpus: { nist: number; individual: number[]; cumulative: number[] };
    segments: [number, number, number][];
  }
  const [text, ...records] = readJsonlGz<MtevalRec & { hyp_lines: string[]; ref_lines: string[][] }>(
    'mteval-nltk-wmt15-eval.jsonl.gz',
  );

  it.each(
    records.map((r) => ({
      name: `${r.tool} ${r.args.filter((a) => a === '-c' || a.startsWith('--')).join(' ')}`,
      r,
    })),
  )('$name', ({ r }) => {
    const metric = new Nist({
      tokenize: r.args.includes('--international-tokenization') ? 'intl' : '13a',
      lowercase: !r.args.includes('-c'),
      maxOrder: 9,
    });
    const rows = metric.segmentStats(text.hyp_lines, metric.prepareReferences(text.ref_lines));
    const corpus = metric.scoreFromStats(sumRows(rows, metric.statsWidth));
    const individual = corpus.details!.individual as number[];
    const cumulative = corpus.details!.cumulative as number[];
    for (let n = 0; n < 9; n++) {
      expect(asPrinted(individual[n], r.corpus.individual[n]), `individual ${n + 1}`).toBe(true);
      expect(asPrinted(cumulative[n], r.corpus.cumulative[n]), `cumulative ${n + 1}`).toBe(true);
    }
    // mteval's NIST score is the cumulative score at order 5.
    const five = new Nist({ tokenize: metric.tokenize, lowercase: metric.lowercase });
    const rows5 = five.segmentStats(text.hyp_lines, five.prepareReferences(text.ref_lines));
    expect(asPrinted(five.scoreFromStats(sumRows(rows5, five.statsWidth)).score, r.corpus.nist)).toBe(true);
    const bad: string[] = [];
    for (const [line, words, want] of r.segments) {
      const s = five.sentenceScoreFromStats(rows5.subarray((line - 1) * five.statsWidth, line * five.statsWidth));
      if (!asPrinted(s.score, want) || s.details!.hypLen !== words) bad.push(`line ${line}: ${s.score} want ${want}`);
    }
    expect(bad).toEqual([]);
  });
});

describe('NLTK 3.8 corpus_nist / sentence_nist (golden/nltk/bleu-nist.*.json)', () => {
  interface NltkRec {
    hyp: string;
    tokenization: string;
    corpus: Record<string, number>;
    segments: [number, number | { error: string }][] | null;
    hyp_lines: string[];
    ref_lines: string[][];
  }
  const records = readJsonlGz<NltkRec>('nltk-nist.jsonl.gz');
  const cases = records.flatMap((r) =>
    Object.keys(r.corpus).map((key) => ({ name: `${r.hyp} ${key}`, r, n: Number(key.slice('nist_n'.length)) })),
  );

  it.each(cases)('$name', ({ r, n }) => {
    const metric = new Nist({
      flavor: 'nltk',
      maxOrder: n,
      tokenize: r.tokenization.includes('Tokenizer13a') ? '13a' : 'none',
    });
    const rows = metric.segmentStats(r.hyp_lines, metric.prepareReferences(r.ref_lines));
    const got = metric.scoreFromStats(sumRows(rows, metric.statsWidth)).score;
    expect(close(got, r.corpus[`nist_n${n}`]), `${got} want ${r.corpus[`nist_n${n}`]}`).toBe(true);
    if (n !== 5 || r.segments === null) return;
    const bad: string[] = [];
    for (const [line, want] of r.segments) {
      const s = metric.sentenceScoreFromStats(rows.subarray((line - 1) * metric.statsWidth, line * metric.statsWidth));
      const ok = typeof want === 'number' ? close(s.score, want) : Number.isNaN(s.score);
      if (!ok) bad.push(`line ${line}: ${s.score} want ${JSON.stringify(want)}`);
    }
    expect(bad).toEqual([]);
  });

  it('covers ZeroDivisionError lines', () => {
    const errors = records.flatMap((r) => (r.segments ?? []).filter(([, v]) => typeof v !== 'number'));
    expect(errors.length).toBe(74);
  });
});
