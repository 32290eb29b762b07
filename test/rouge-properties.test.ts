/**
 * Property tests of the ROUGE metrics (fast-check, small vocabularies so that matches and ties abound, lengths
 * around 63/64/65 and 127/128/129 tokens where the bit-parallel LCS changes vector words):
 * - the rouge-score flavor against a plain transcription of rouge-score 0.1.2's `RougeScorer.score` /
 *   `score_multi` written here from its definitions (Counters of n-gram tuples, the full LCS table,
 *   `_backtrack_norec`, `_summary_level_lcs` with its token-count clipping, `fmeasure`), value for value and bit for
 *   bit;
 * - the rouge155 flavor (batched kernels over a corpus) against `rouge155Unit` (one unit at a time): the same R/P/F
 *   and counts, for `pool` and `best-recall`, every type, with several references;
 * - all paths agree: a corpus in one call vs one segment per call, references prepared once vs per system.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { corpusScore, sentenceScores, sumRows } from '../src/metrics/metric.js';
import { Rouge, type RougeOptions } from '../src/metrics/rouge/rouge.js';
import { rouge155Unit } from '../src/metrics/rouge155/unit.js';
import { rougeTokens } from '../src/text/rouge/index.js';

const WORDS = ['a', 'b', 'c', 'dd', 'running', 'runs', 'the'];

/** Texts of words and newlines, mostly short, sometimes around the LCS vector boundaries. */
const textArb = fc
  .oneof(
    { arbitrary: fc.integer({ min: 0, max: 12 }), weight: 6 },
    { arbitrary: fc.constantFrom(63, 64, 65, 127, 128, 129), weight: 1 },
  )
  .chain((n) =>
    fc.array(
      fc.oneof({ arbitrary: fc.constantFrom(...WORDS), weight: 8 }, { arbitrary: fc.constant('\n'), weight: 1 }),
      {
        minLength: n,
        maxLength: n,
      },
    ),
  )
  .map((tokens) => tokens.join(' '));

/** A segment: hypothesis and 1–3 references. */
const segmentArb = fc.record({ hyp: textArb, refs: fc.array(textArb, { minLength: 1, maxLength: 3 }) });

// ---- rouge-score 0.1.2, transcribed -------------------------------------------------------------------------

type Prf = [number, number, number];
const fmeasure = (p: number, r: number): number => (p + r > 0 ? (2 * p * r) / (p + r) : 0);

function ngramCounts(tokens: string[], n: number): Map<string, number> {
  const counts = new Map<string, number>();
  for (let i = 0; i + n <= tokens.length; i++) {
    const key = tokens.slice(i, i + n).join('\u0000');
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

function scoreNgrams(target: string[], prediction: string[], n: number): Prf {
  const t = ngramCounts(target, n);
  const p = ngramCounts(prediction, n);
  let hits = 0;
  for (const [k, c] of t) hits += Math.min(c, p.get(k) ?? 0);
  let tc = 0;
  let pc = 0;
  for (const c of t.values()) tc += c;
  for (const c of p.values()) pc += c;
  const precision = hits / Math.max(pc, 1);
  const recall = hits / Math.max(tc, 1);
  return [precision, recall, fmeasure(precision, recall)];
}

function lcsTable(ref: string[], can: string[]): number[][] {
  const t = Array.from({ length: ref.length + 1 }, () => new Array<number>(can.length + 1).fill(0));
  for (let i = 1; i <= ref.length; i++) {
    for (let j = 1; j <= can.length; j++) {
      t[i][j] = ref[i - 1] === can[j - 1] ? t[i - 1][j - 1] + 1 : Math.max(t[i - 1][j], t[i][j - 1]);
    }
  }
  return t;
}

function scoreLcs(target: string[], prediction: string[]): Prf {
  if (target.length === 0 || prediction.length === 0) return [0, 0, 0];
  const lcs = lcsTable(target, prediction)[target.length][prediction.length];
  const precision = lcs / prediction.length;
  const recall = lcs / target.length;
  return [precision, recall, fmeasure(precision, recall)];
}

function backtrack(ref: string[], can: string[]): number[] {
  const t = lcsTable(ref, can);
  const out: number[] = [];
  let i = ref.length;
  let j = can.length;
  while (i > 0 && j > 0) {
    if (ref[i - 1] === can[j - 1]) {
      out.unshift(i - 1);
      i--;
      j--;
    } else if (t[i][j - 1] > t[i - 1][j]) j--;
    else i--;
  }
  return out;
}

function summaryLevelLcs(refSents: string[][], canSents: string[][]): Prf {
  if (refSents.length === 0 || canSents.length === 0) return [0, 0, 0];
  const m = refSents.reduce((a, s) => a + s.length, 0);
  const n = canSents.reduce((a, s) => a + s.length, 0);
  if (n === 0 || m === 0) return [0, 0, 0];
  const count = (sents: string[][]): Map<string, number> => {
    const c = new Map<string, number>();
    for (const s of sents) for (const t of s) c.set(t, (c.get(t) ?? 0) + 1);
    return c;
  };
  const cr = count(refSents);
  const cc = count(canSents);
  let hits = 0;
  for (const r of refSents) {
    const union = new Set<number>();
    for (const c of canSents) for (const i of backtrack(r, c)) union.add(i);
    for (const i of [...union].sort((x, y) => x - y)) {
      const t = r[i];
      if ((cc.get(t) ?? 0) > 0 && (cr.get(t) ?? 0) > 0) {
        hits++;
        cc.set(t, cc.get(t)! - 1);
        cr.set(t, cr.get(t)! - 1);
      }
    }
  }
  const recall = hits / m;
  const precision = hits / n;
  return [precision, recall, fmeasure(precision, recall)];
}

/** `RougeScorer([type], use_stemmer).score(target, prediction)[type]` as [P, R, F]. */
function rougeScore(type: string, target: string, prediction: string, stem: boolean): Prf {
  const tok = (s: string): string[] => rougeTokens(s, { tokenizer: 'rouge-score', stem });
  if (type === 'rougeLsum') {
    const sents = (s: string): string[][] =>
      s
        .split('\n')
        .filter((x) => x.length > 0)
        .map(tok);
    return summaryLevelLcs(sents(target), sents(prediction));
  }
  if (type === 'rougeL') return scoreLcs(tok(target), tok(prediction));
  return scoreNgrams(tok(target), tok(prediction), Number(type.slice(5)));
}

/** `score_multi`: the best F, the first reference on ties. */
function rougeScoreMulti(type: string, targets: string[], prediction: string, stem: boolean): Prf {
  let best = rougeScore(type, targets[0], prediction, stem);
  for (const t of targets.slice(1)) {
    const s = rougeScore(type, t, prediction, stem);
    if (s[2] > best[2]) best = s;
  }
  return best;
}

// ---- properties ---------------------------------------------------------------------------------------------

describe('ROUGE metric properties', () => {
  it('rouge-score flavor = a transcription of rouge-score 0.1.2 (score_multi), bit for bit', () => {
    fc.assert(
      fc.property(
        fc.array(segmentArb, { minLength: 1, maxLength: 4 }),
        fc.constantFrom('rouge1', 'rouge2', 'rouge4', 'rougeL', 'rougeLsum'),
        fc.boolean(),
        (segments, type, stem) => {
          const nRefs = Math.min(...segments.map((s) => s.refs.length));
          const metric = new Rouge({ type, flavor: 'rouge-score', stem });
          const refStreams = Array.from({ length: nRefs }, (_, j) => segments.map((s) => s.refs[j]));
          const rows = metric.segmentStats(
            segments.map((s) => s.hyp),
            metric.prepareReferences(refStreams),
          );
          segments.forEach((s, i) => {
            const expected = rougeScoreMulti(type, s.refs.slice(0, nRefs), s.hyp, stem);
            expect([rows[7 * i + 3], rows[7 * i + 4], rows[7 * i + 5]]).toEqual(expected);
          });
        },
      ),
      { numRuns: 150 },
    );
  });

  it('rouge155 flavor (batched) = rouge155Unit (one unit at a time), pool and best-recall, every type', () => {
    fc.assert(
      fc.property(
        fc.array(segmentArb, { minLength: 1, maxLength: 3 }),
        fc.constantFrom<'A' | 'B'>('A', 'B'),
        fc.boolean(),
        (segments, formula, stem) => {
          const nRefs = Math.min(...segments.map((s) => s.refs.length));
          const refStreams = Array.from({ length: nRefs }, (_, j) => segments.map((s) => s.refs[j]));
          const hyps = segments.map((s) => s.hyp);
          const common: Omit<RougeOptions, 'type'> = {
            flavor: 'rouge155',
            stem,
            split: 'newline',
            multiReference: formula === 'A' ? 'pool' : 'best-recall',
          };
          const unitOptions = {
            maxN: 2,
            wWeight: 1.2,
            skipDistance: 4,
            su: false,
            suAlso: true,
            stem,
            stopwords: false,
            formula,
            alpha: 0.5,
            countMode: 0,
          } as const;
          const units = segments.map((s) =>
            rouge155Unit(
              s.hyp.split('\n'),
              s.refs.slice(0, nRefs).map((r) => r.split('\n')),
              unitOptions,
            ),
          );
          for (const [id, name] of [
            ['rouge-1', 'ROUGE-1'],
            ['rouge-2', 'ROUGE-2'],
            ['rouge-lsum', 'ROUGE-L'],
            ['rouge-w-1.2', 'ROUGE-W-1.2'],
            ['rouge-s4', 'ROUGE-S4'],
            ['rouge-su4', 'ROUGE-SU4'],
          ]) {
            const metric = new Rouge({ ...common, type: id });
            const rows = metric.segmentStats(hyps, metric.prepareReferences(refStreams));
            units.forEach((unit, i) => {
              const t = unit.find((x) => x.type === name)!;
              expect(Array.from(rows.subarray(7 * i, 7 * i + 6)), `${id} segment ${i}`).toEqual([
                t.hitCount,
                t.peerCount,
                t.modelCount,
                t.precision,
                t.recall,
                t.fmeasure,
              ]);
            });
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('all paths agree: corpus in one call = segment by segment; references prepared once = per system', () => {
    fc.assert(
      fc.property(
        fc.array(segmentArb, { minLength: 1, maxLength: 5 }),
        fc.array(textArb, { minLength: 5, maxLength: 5 }),
        fc.constantFrom<RougeOptions>(
          { type: 'rouge-2', flavor: 'rouge155' },
          { type: 'rouge-lsum', flavor: 'rouge155', split: 'newline' },
          { type: 'rougeLsum', flavor: 'rouge-score' },
          { type: 'rouge-w', flavor: 'paper' },
          { type: 'rouge-su*', flavor: 'paper', jackknife: true },
          { type: 'rouge-l', flavor: 'paper', multiReference: 'pool', average: 'pooled' },
        ),
        (segments, otherSystem, options) => {
          const nRefs = Math.min(...segments.map((s) => s.refs.length));
          const refStreams = Array.from({ length: nRefs }, (_, j) => segments.map((s) => s.refs[j]));
          const hyps = segments.map((s) => s.hyp);
          const metric = new Rouge(options);
          const prepared = metric.prepareReferences(refStreams);
          // Another system scored first through the same prepared references changes nothing.
          metric.segmentStats(otherSystem.slice(0, segments.length), prepared);
          const rows = metric.segmentStats(hyps, prepared);
          const fresh = new Rouge(options);
          expect(rows).toEqual(fresh.segmentStats(hyps, fresh.prepareReferences(refStreams)));
          segments.forEach((s, i) => {
            const one = fresh.segmentStats([s.hyp], fresh.prepareReferences(refStreams.map((r) => [r[i]])));
            expect(one).toEqual(rows.subarray(7 * i, 7 * i + 7));
          });
          expect(corpusScore(metric, hyps, prepared)).toEqual(metric.scoreFromStats(sumRows(rows, 7)));
          const sentences = sentenceScores(metric, hyps, prepared);
          sentences.forEach((s, i) => expect(s.details!.fmeasure).toBe(rows[7 * i + 5]));
        },
      ),
      { numRuns: 60 },
    );
  });
});
