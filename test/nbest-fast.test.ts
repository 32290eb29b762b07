/**
 * The fast path of `palette nbest` (src/engine/nbest/fast/): (1) each chunk tokenizer is context-free across U+0020,
 * i.e. the memoised concatenation of a line's space-separated chunks equals the tokenizer run on the whole line, on
 * random lines full of tabs, no-break and ideographic spaces, case (capital sigmas in Final_Sigma contexts for the
 * lowercasing word splits), non-ASCII letters, digits, hyphens and punctuation; the word tokenizers give WER/PER's
 * own words; and Moses' split is the chunking itself; (2) for random n-best lists and references, the fused rows
 * equal the generic path's rows (each metric's Metric API in layers) bit for bit, for several metric combinations
 * and settings (ROUGE-W and ROUGE-1.5.5's ROUGE-L, lowercased WER/PER against case-flipped references, metrics
 * without a token stage beside those with one included); (3) the fast path is taken exactly when some metric of the
 * run has a token stage.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunkJobContext, streamReferenceSource } from '../src/engine/nbest/chunk-job.js';
import { ChunkMemo } from '../src/engine/nbest/fast/chunk-memo.js';
import { IntList } from '../src/engine/nbest/fast/int-list.js';
import { scoreTask, type NbestTaskSettings } from '../src/engine/nbest/nbest-task.js';
import { resolveNbestMetricIds } from '../src/engine/nbest/nbest-metrics.js';
import { spaceChunkTokenizer } from '../src/metrics/bleu/moses-token-stage.js';
import { wordChunkTokenizer } from '../src/metrics/edit/token-stage.js';
import { editTextOptions } from '../src/metrics/edit/words.js';
import { rougeChunkTokenizer } from '../src/metrics/rouge/token-stage.js';
import type { ChunkTokenizer } from '../src/metrics/token-stage.js';
import { defaultRegistry, type MetricSettings } from '../src/metrics/registry.js';
import { pyLower } from '../src/text/pystr.js';
import { bleuScan, TokenBounds } from '../src/text/tokenizers/index.js';

/** Pieces random lines are made of: words, every kind of blank, case, non-ASCII letters, punctuation. */
const PIECES = [
  'the', 'The', 'CAT', 'cats', 'running', 'ran', 'a', 'is', 'generalization', 'don\'t', 'e-mail', 'U.S.', '2024',
  '3.5', 'x1', 'Straße', 'İstanbul', '\u212a', 'naïve', 'Ελλάδα', 'ς', '中文', '-', '--', '.', ',', '!', '?', '"',
  '(', ')', '’', ' ', ' ', ' ', '  ', '\t', '\u00a0', '\u3000', '\u2009', '\u000b', '\u0085', '\u001f', '',
  // Python's str.lower() context (Final_Sigma: a cased letter, case-ignorables, Σ, no cased letter after
  // case-ignorables): capital sigmas next to letters, apostrophes, periods, combining marks and soft hyphens.
  'ΟΔΟΣ', 'Σ', 'ΑΣ', "'", '.Σ', '\u0301', '\u00ad', 'ΣΑ', 'İ',
];
const line = fc.array(fc.constantFrom(...PIECES), { maxLength: 24 }).map((p) => p.join(''));
/** Text without line breaks, bars or leading blanks that would change the n-best parse. */
const candidate = fc.array(fc.constantFrom(...PIECES.filter((p) => p !== '\u0085')), { maxLength: 20 }).map((p) => p.join(''));

const TOKENIZERS: [string, () => ChunkTokenizer][] = [
  ['rouge155', () => rougeChunkTokenizer('rouge155', false, false)],
  ['rouge155 stem + stopwords', () => rougeChunkTokenizer('rouge155', true, true)],
  ['rouge-score', () => rougeChunkTokenizer('rouge-score', false, false)],
  ['rouge-score stem', () => rougeChunkTokenizer('rouge-score', true, false)],
  ['jiwer', () => wordChunkTokenizer('jiwer')],
  ['python split', () => wordChunkTokenizer('none')],
  ['jiwer lowercase', () => wordChunkTokenizer('jiwer', true)],
  ['python split lowercase', () => wordChunkTokenizer('none', true)],
];

describe('chunk tokenizers are context-free across spaces', () => {
  it.each(TOKENIZERS)('%s: memoised chunks = the whole line', (_, make) => {
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 6 }), (lines) => {
        const tokenizer = make();
        const memo = new ChunkMemo([tokenizer]);
        const [csr] = memo.rows(lines.length, (i) => lines[i]);
        lines.forEach((text, i) => {
          // The same tokenizer (same vocabulary) on the whole line, as one chunk.
          const whole = new IntList();
          tokenizer.tokenize(text, whole);
          expect(Array.from(csr.tokens.subarray(csr.offsets[i], csr.offsets[i + 1])), JSON.stringify(text)).toEqual(
            Array.from(whole.finish()),
          );
        });
      }),
      { numRuns: 300 },
    );
  });
});

describe('the word chunk tokenizers are the edit metrics\' own', () => {
  it.each([
    ['jiwer', false],
    ['jiwer', true],
    ['none', false],
    ['none', true],
  ] as const)('%s, lowercase %s: a whole line gives the words of WER/PER\'s text options', (split, lowercase) => {
    const text = editTextOptions(split, lowercase);
    const bounds = new TokenBounds();
    fc.assert(
      // The line, then its upper- and lower-cased forms: with lowercasing, the same words come back in three cases.
      fc.property(line.map((l) => `${l} ${l.toUpperCase()}\t${l.toLowerCase()}`), (l) => {
        const got = new IntList();
        wordChunkTokenizer(split, lowercase).tokenize(l, got);
        // The metric's words (lowercased line, then the split), numbered in order of first appearance as a fresh
        // vocabulary numbers them.
        const source = bleuScan(l, text.scanner, text.lowercase, bounds);
        const ids = new Map<string, number>();
        const expected: number[] = [];
        for (let k = 0; k < bounds.count; k++) {
          const w = source.slice(bounds.start(k), bounds.end(k));
          if (!ids.has(w)) ids.set(w, ids.size);
          expected.push(ids.get(w)!);
        }
        expect(Array.from(got.finish()), JSON.stringify(l)).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('Final_Sigma: Σ lowered in context of its own chunk equals in context of the whole line', () => {
    // A Σ after a cased letter is final only when no cased letter follows past case-ignorables; a space ends both.
    expect(pyLower('ΑΣ Α')).toBe('ας α');
    expect(pyLower("ΑΣ' Α")).toBe("ας' α");
    expect(pyLower('Α ΣΑ')).toBe('α σα');
    const memo = new ChunkMemo([wordChunkTokenizer('none', true)]);
    const lines = ['ΑΣ Α', 'ας α', "Α.Σ\u0301 ΣΑ", "α.ς\u0301 σα", 'Α Σ', 'α σ'];
    const [csr] = memo.rows(lines.length, (i) => lines[i]);
    const row = (i: number): number[] => Array.from(csr.tokens.subarray(csr.offsets[i], csr.offsets[i + 1]));
    for (let i = 0; i < lines.length; i += 2) expect(row(i)).toEqual(row(i + 1));
  });
});

describe("Moses' split is the chunking itself", () => {
  it('chunk ids = U+0020-split pieces (empty ones dropped), numbered in order of first appearance', () => {
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 6 }), (lines) => {
        const memo = new ChunkMemo([spaceChunkTokenizer(), wordChunkTokenizer('jiwer')]);
        const [csr] = memo.rows(lines.length, (i) => lines[i]);
        const ids = new Map<string, number>();
        lines.forEach((text, i) => {
          const expected = text.split(' ').filter((t) => t.length > 0).map((t) => {
            if (!ids.has(t)) ids.set(t, ids.size);
            return ids.get(t)!;
          });
          expect(Array.from(csr.tokens.subarray(csr.offsets[i], csr.offsets[i + 1])), JSON.stringify(text)).toEqual(expected);
        });
      }),
      { numRuns: 300 },
    );
  });
});

const SETTINGS: NbestTaskSettings = { path: 'test.nbest', format: 'json', allowDuplicates: true, sentenceScores: false };

/** Rows of one task on the fast path and on the generic path. */
function bothPaths(names: string[], settings: MetricSettings, refStreams: string[][], text: string) {
  const ids = resolveNbestMetricIds(names, settings, defaultRegistry);
  const spec = { ids, settings };
  const refs = streamReferenceSource(refStreams);
  const fast = chunkJobContext(SETTINGS, spec, refs, defaultRegistry);
  const generic = chunkJobContext(SETTINGS, spec, refs, defaultRegistry, true);
  // Copied: the rows live in the fast path's store, which the next task on the same context overwrites.
  const a = scoreTask(text, 1, SETTINGS, fast.metrics, refs, fast.fused, undefined, fast.rows).stats.slice();
  const b = scoreTask(text, 1, SETTINGS, generic.metrics, refs, generic.fused, undefined, generic.rows);
  // A second task on the same thread: the memo grown by the first, the row buffers reused.
  const again = scoreTask(text, 1, SETTINGS, fast.metrics, refs, fast.fused, undefined, fast.rows);
  return {
    fast: a,
    again: again.stats,
    generic: b.stats,
    fused: fast.fused !== undefined,
    genericFused: generic.fused !== undefined,
  };
}

const COMBINATIONS: [string[], MetricSettings][] = [
  [['bleu', 'rouge-l', 'rouge-s4', 'wer'], {}],
  [['per', 'rouge-1', 'rouge-2', 'rouge-su4', 'rouge-s*'], {}],
  [['rouge-l', 'wer', 'per'], { rouge: { stem: true } }],
  [['rouge-s4', 'rouge-2'], { rouge: { flavor: 'rouge155', stem: true, removeStopwords: true } }],
  [['rouge-1', 'rouge-l'], { rouge: { multiReference: 'max', flavor: 'paper' } }],
  [['rouge-su4', 'bleu'], { rouge: { multiReference: 'best-recall', jackknife: true } }],
  [['rouge-s4', 'rouge-3', 'rouge-su2'], { rouge: { flavor: 'rouge155', multiReference: 'best-recall', alpha: 0.3 } }],
  [['wer', 'per', 'bleu'], { wer: { lowercase: true }, per: { lowercase: true } }],
  [['wer', 'per', 'rouge-1'], { wer: { lowercase: true } }],
  [['per', 'wer'], { per: { lowercase: true } }],
  [['bleu', 'rouge-l', 'wer'], { rouge: { flavor: 'rouge155' } }],
  [['rouge-w-1.2', 'wer'], {}],
  [['rouge-w', 'rouge-l', 'rouge-2'], { rouge: { flavor: 'rouge155', multiReference: 'best-recall', alpha: 0.3, split: 'newline' } }],
  [['rouge-l', 'rouge-w-1.5'], { rouge: { flavor: 'rouge155', stem: true, removeStopwords: true } }],
  [['rouge-l', 'rouge-w'], { rouge: { flavor: 'rouge155', jackknife: true } }],
  [['rouge-w', 'rouge-l'], { rouge: { flavor: 'paper' } }],
  [['rouge-w-1.3', 'per'], { rouge: { flavor: 'paper', multiReference: 'pool' } }],
  [['rouge-w', 'rouge-l'], { rouge: { flavor: 'paper', multiReference: 'best-recall', jackknife: true } }],
  [['bleu'], {}],
  [['wer', 'per'], { wer: { tokenize: 'none' }, per: { tokenize: 'jiwer', lowercase: true } } as MetricSettings],
  // Metrics without a token stage give their own rows beside the stages' (chrF, TER, ROUGE-Lsum's sentences).
  [['rouge-l', 'chrf', 'wer'], {}],
  [['rouge-lsum', 'bleu', 'ter', 'rouge-1'], {}],
];

describe('fused rows = generic rows, bit for bit', () => {
  it.each(COMBINATIONS)('%j %j', (names, settings) => {
    const list = fc.record({
      nRefs: fc.integer({ min: 1, max: 4 }),
      segments: fc.array(fc.array(candidate, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 5 }),
      refSeed: fc.array(line.map((l) => l.replace(/[\n\r\u0085\u2028\u2029]/g, ' ')), { minLength: 20, maxLength: 20 }),
    });
    fc.assert(
      fc.property(list, ({ nRefs, segments, refSeed }) => {
        const refStreams = Array.from({ length: nRefs }, (_, j) =>
          segments.map((_, s) => refSeed[(s * nRefs + j) % refSeed.length]),
        );
        let text = '';
        segments.forEach((cands, s) => {
          for (const c of cands) text += `${s} ||| ${c} ||| 0 ||| 0\n`;
        });
        const r = bothPaths(names, settings, refStreams, text);
        expect(r.fused).toBe(true);
        expect(r.genericFused).toBe(false);
        expect(r.fast.length).toBe(r.generic.length);
        for (let k = 0; k < r.fast.length; k++) {
          if (!Object.is(r.fast[k], r.generic[k])) expect([k, r.fast[k]]).toEqual([k, r.generic[k]]);
          if (!Object.is(r.again[k], r.generic[k])) expect([k, r.again[k]]).toEqual([k, r.generic[k]]);
        }
      }),
      { numRuns: 60 },
    );
  });

  it.each([
    [['wer', 'per'], { wer: { lowercase: true }, per: { lowercase: true } }],
    [['per', 'rouge-l', 'wer'], { per: { lowercase: true } }],
  ] as [string[], MetricSettings][])('lowercase %j %j: references = candidates in other cases', (names, settings) => {
    const segments = fc.array(fc.array(candidate, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 4 });
    fc.assert(
      fc.property(segments, (segs) => {
        // Reference j of a segment is one of its candidates upper-cased (j odd) or as is: many words match only
        // after lowercasing.
        const refStreams = [0, 1].map((j) =>
          segs.map((c) => (j % 2 === 1 ? c[c.length - 1].toUpperCase() : c[0]).replace(/\|/g, ' ')),
        );
        let text = '';
        segs.forEach((cands, s) => {
          for (const c of cands) text += `${s} ||| ${c} ||| 0 ||| 0\n`;
        });
        const r = bothPaths(names, settings, refStreams, text);
        expect(r.fused).toBe(true);
        for (let k = 0; k < r.fast.length; k++) {
          if (!Object.is(r.fast[k], r.generic[k])) expect([k, r.fast[k]]).toEqual([k, r.generic[k]]);
          if (!Object.is(r.again[k], r.generic[k])) expect([k, r.again[k]]).toEqual([k, r.generic[k]]);
        }
      }),
      { numRuns: 60 },
    );
  });

  it('the fast path runs when some metric has a token stage, the generic path when none has', () => {
    const refStreams = [['a b c']];
    const text = '0 ||| a b ||| 0 ||| 0\n';
    expect(bothPaths(['chrf'], {}, refStreams, text).fused).toBe(false);
    expect(bothPaths(['rouge-lsum'], {}, refStreams, text).fused).toBe(false);
    expect(bothPaths(['rouge-w'], { rouge: { split: 'punct' } }, refStreams, text).fused).toBe(false);
    expect(bothPaths(['rouge-l'], { rouge: { flavor: 'rouge155', limit: { bytes: 10 } } }, refStreams, text).fused).toBe(false);
    expect(bothPaths(['rouge-l'], { rouge: { tokenizer: '13a' } }, refStreams, text).fused).toBe(false);
    expect(bothPaths(['rouge-s4'], { rouge: { limit: { words: 3 } } }, refStreams, text).fused).toBe(false);
    expect(bothPaths(['rouge-2'], { rouge: { split: 'punct' } }, refStreams, text).fused).toBe(false);
    expect(bothPaths(['wer', 'chrf'], { wer: { tokenize: '13a' } } as MetricSettings, refStreams, text).fused).toBe(false);
    expect(bothPaths(['bleu'], {}, refStreams, text).fused).toBe(true);
    expect(bothPaths(['rouge-l', 'chrf'], {}, refStreams, text).fused).toBe(true);
    expect(bothPaths(['per'], { per: { lowercase: true, tokenize: 'jiwer' } } as MetricSettings, refStreams, text).fused).toBe(true);
    expect(bothPaths(['rouge-l', 'wer', 'bleu'], {}, refStreams, text).fused).toBe(true);
    expect(bothPaths(['rouge-w', 'wer'], {}, refStreams, text).fused).toBe(true);
    expect(bothPaths(['rouge-l', 'bleu'], { rouge: { flavor: 'rouge155' } }, refStreams, text).fused).toBe(true);
  });
});
