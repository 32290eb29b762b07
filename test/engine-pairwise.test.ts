/**
 * All-pairs sentence scores (src/engine/pairwise): every matrix entry equals sacreBLEU 2.6.0's `sentence_score` of
 * the pair (the golden of ../shared/golden/mbr, and its slice in test/fixtures/pairwise for a clone alone), equals
 * the sentence score of the same pair through the library `palette score -sl` runs, whatever the tiling (chrF, BLEU,
 * TER through their own stages; ROUGE, WER, PER through their token stages); MBR picks the golden's choice.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  mbrSelect, pairwiseRowBlocks, pairwiseScores, pairwiseStageOf, PairwiseScorer,
} from '../src/engine/pairwise/index.js';
import { InputError } from '../src/errors.js';
import { Bleu } from '../src/metrics/bleu/bleu.js';
import { Chrf } from '../src/metrics/chrf/chrf.js';
import { sentenceScore, type Metric } from '../src/metrics/metric.js';
import { defaultRegistry, type MetricSettings } from '../src/metrics/registry.js';
import { Ter } from '../src/metrics/ter/ter.js';
import { goldenClose, haveShared, sharedPath } from './helpers/shared-data.js';

/** The golden's four metrics, as its header describes them. */
function goldenMetric(name: string): { metric: Metric; direction: 'higher' | 'lower' } {
  switch (name) {
    case 'chrF':
      return { metric: new Chrf(), direction: 'higher' };
    case 'chrF++':
      return { metric: new Chrf({ wordOrder: 2 }), direction: 'higher' };
    case 'BLEU':
      return { metric: new Bleu({ effectiveOrder: true }), direction: 'higher' };
    case 'TER':
      return { metric: new Ter(), direction: 'lower' };
    default:
      throw new Error(`no metric ${name}`);
  }
}

interface Case {
  readonly metric: string;
  readonly line: number;
  readonly samples: readonly string[];
  readonly matrix: readonly (readonly number[])[];
  readonly choice: number;
  readonly nearTies: readonly number[];
}

/** Checks one segment's matrix entry by entry (1e-9 relative) and its MBR choice; returns the entries compared. */
function checkCase(c: Case, tiles: { tileRows: number; tileColumns: number }): number {
  const { metric, direction } = goldenMetric(c.metric);
  const n = c.samples.length;
  const m = pairwiseScores(metric, c.samples, c.samples, tiles);
  let compared = 0;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      if (!goldenClose(m[i * n + j], c.matrix[i][j])) {
        throw new Error(`${c.metric} line ${c.line} [${i}][${j}]: ${m[i * n + j]} ≠ ${c.matrix[i][j]}`);
      }
      compared++;
    }
  }
  const { choice } = mbrSelect(m, n, n, { direction });
  if (choice !== c.choice && !c.nearTies.includes(choice)) {
    throw new Error(`${c.metric} line ${c.line}: MBR chose ${choice}, the golden ${c.choice} (near ties ${c.nearTies})`);
  }
  return compared;
}

describe('sacreBLEU 2.6.0 pairwise matrices, clone fixture (5 segments × 4 metrics)', () => {
  const fixture = JSON.parse(readFileSync(new URL('fixtures/pairwise/wmt21-en-de-5.json', import.meta.url), 'utf8')) as {
    segments: { line: number; samples: string[]; metrics: Record<string, { mbr_choice: number; near_ties: number[]; matrix: number[][] }> }[];
  };
  for (const name of ['chrF', 'chrF++', 'BLEU', 'TER']) {
    it(`${name}: every entry and the MBR choice`, () => {
      let compared = 0;
      for (const s of fixture.segments) {
        const g = s.metrics[name];
        const c = { metric: name, line: s.line, samples: s.samples, matrix: g.matrix, choice: g.mbr_choice, nearTies: g.near_ties };
        compared += checkCase(c, { tileRows: 64, tileColumns: 256 });
        // Tiles that cut the 20 samples unevenly (and the kernel's blocks of 4 references) give the same numbers.
        compared += checkCase(c, { tileRows: 3, tileColumns: 7 });
      }
      expect(compared).toBe(2 * 5 * 400);
    });
  }
});

const GOLDEN = 'golden/mbr/wmt21-en-de.pairwise.json';

describe.skipIf(!haveShared(GOLDEN))('sacreBLEU 2.6.0 pairwise matrices, ../shared golden (100 segments × 4 metrics)', () => {
  it('every entry of every matrix, and every MBR choice', () => {
    const golden = JSON.parse(readFileSync(sharedPath(GOLDEN), 'utf8')) as {
      header: { samples: string[] };
      records: { metric: string; segments: [number, number, number[], number[], number[][]][] }[];
    };
    const files = golden.header.samples.map((p) => readFileSync(sharedPath(`data/${p}`), 'utf8').split('\n'));
    let compared = 0;
    for (const r of golden.records) {
      const [line, choice, , nearTies, matrix] = r.segments[0];
      const samples = files.map((f) => f[line - 1]);
      compared += checkCase({ metric: r.metric, line, samples, matrix, choice, nearTies }, { tileRows: 64, tileColumns: 256 });
    }
    expect(golden.records.length).toBe(400);
    expect(compared).toBe(400 * 400);
  });
});

/** Texts that reach the corners: empty, one character, repeats, punctuation, case, Unicode, long. */
const TEXTS = [
  'The cat sat on the mat.',
  'the cat sat on the mat',
  '',
  'a',
  'Der Hund bellt, der Hund bellt, der Hund bellt!',
  'Ein Über-Straße café — „Zitat“ mit 3,5 % Rabatt.',
  'the the the the the the the',
  'A cat sat on a mat, and the dog barked at the cat on the mat for a long, long time.',
  '   leading and trailing spaces   ',
  'THE CAT SAT ON THE MAT.',
  'x y',
  '日本語のテキストも 入る',
  "It's a test-case: (brackets) [and] {braces}; ok?",
];

describe('a pair scores as the sentence score of that pair (the library palette score -sl runs)', () => {
  const settings: [string, string, MetricSettings][] = [
    ['chrf', 'chrF', {}],
    ['chrf', 'chrF++', { chrf: { wordOrder: 2 } }],
    ['chrf', 'chrF β1 lowercase whitespace', { chrf: { beta: 1, lowercase: true, whitespace: true } }],
    ['chrf', 'chrF++ eps smoothing, orders 4/3', { chrf: { charOrder: 4, wordOrder: 3, epsSmoothing: true } }],
    ['bleu', 'BLEU (-sl: effective order)', {}],
    ['bleu', 'BLEU lowercase, floor smoothing, intl', { bleu: { lowercase: true, smoothMethod: 'floor', tokenize: 'intl' } }],
    ['bleu', 'BLEU char, order 6', { bleu: { tokenize: 'char', maxNgramOrder: 6 } }],
    ['ter', 'TER', {}],
    ['ter', 'TER case-sensitive, no punctuation, normalized', { ter: { caseSensitive: true, noPunct: true, normalized: true } }],
    // Metrics scored through their token stage (src/engine/pairwise/token-stage.ts).
    ['rouge-1', 'ROUGE-1', {}],
    ['rouge-2', 'ROUGE-2 stemmed, stopwords removed', { rouge: { stem: true, removeStopwords: true } }],
    ['rouge-l', 'ROUGE-L', {}],
    ['rouge-w', 'ROUGE-W-1.2', {}],
    ['rouge-su4', 'ROUGE-SU4', {}],
    ['rouge-s*', 'ROUGE-S*', {}],
    ['wer', 'WER', {}],
    ['wer', 'WER lowercase', { wer: { lowercase: true } }],
    ['per', 'PER', {}],
  ];
  for (const [id, label, s] of settings) {
    it(label, () => {
      const { metric } = defaultRegistry.create(id, { ...s, sentenceLevel: true } as MetricSettings);
      const hyps = TEXTS;
      const refs = [...TEXTS].reverse().slice(0, 11);
      for (const tiles of [{ tileRows: 64, tileColumns: 256 }, { tileRows: 5, tileColumns: 3 }]) {
        const m = pairwiseScores(metric, hyps, refs, tiles);
        expect(m.length).toBe(hyps.length * refs.length);
        for (let i = 0; i < hyps.length; i++) {
          for (let j = 0; j < refs.length; j++) {
            const want = sentenceScore(metric, hyps[i], [refs[j]]).score;
            if (!Object.is(m[i * refs.length + j], want)) {
              throw new Error(`${label} [${i}][${j}] ${JSON.stringify(hyps[i])} vs ${JSON.stringify(refs[j])}: ${m[i * refs.length + j]} ≠ ${want}`);
            }
          }
        }
      }
    });
  }

  it('row blocks and row ranges are slices of the whole matrix', () => {
    const metric = new Chrf({ wordOrder: 2 });
    const whole = pairwiseScores(metric, TEXTS, TEXTS.slice(2));
    const cols = TEXTS.length - 2;
    const parts = [...pairwiseRowBlocks(metric, TEXTS, TEXTS.slice(2), { blockRows: 4 })];
    expect(parts.map((p) => [p.from, p.to])).toEqual([[0, 4], [4, 8], [8, 12], [12, 13]]);
    for (const p of parts) expect(Array.from(p.scores)).toEqual(Array.from(whole.subarray(p.from * cols, p.to * cols)));
    const scorer = new PairwiseScorer(metric, TEXTS, TEXTS.slice(2));
    expect(Array.from(scorer.scoreRows(5, 7))).toEqual(Array.from(whole.subarray(5 * cols, 7 * cols)));
    expect(scorer.scoreRows(3, 3).length).toBe(0);
    expect(() => scorer.scoreRows(12, 14)).toThrow(RangeError);
  });

  it('empty sets give an empty matrix', () => {
    expect(pairwiseScores(new Bleu(), [], TEXTS).length).toBe(0);
    expect(pairwiseScores(new Ter(), TEXTS, []).length).toBe(0);
  });

  it('a text holding a line break is refused where the token stage scores lines', () => {
    const { metric } = defaultRegistry.create('rouge-l', { sentenceLevel: true });
    for (const [a, b] of [[['one\ntwo'], ['x']], [['x'], ['y', 'one\u2028two']]]) {
      let err: unknown;
      try {
        pairwiseScores(metric, a, b);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(InputError);
      expect((err as InputError).message).toMatch(/holds a line break/);
    }
  });

  it('a metric without pairwise scores is refused with E_UNKNOWN_METRIC', () => {
    for (const id of ['nist', 'gtm', 'rouge-lsum']) {
      const { metric } = defaultRegistry.create(id, { sentenceLevel: true });
      let err: unknown;
      try {
        pairwiseStageOf(metric);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(InputError);
      expect((err as InputError).code).toBe('E_UNKNOWN_METRIC');
    }
  });
});

describe('mbrSelect', () => {
  // 3 samples, utilities without self: row 0 = (1 + 3) / 2 = 2, row 1 = (3 + 1) / 2 = 2, row 2 = (0 + 2) / 2 = 1.
  const m = Float64Array.of(9, 1, 3, 3, 9, 1, 0, 2, 9);
  it('leaves the self-pair out and breaks ties to the lowest index', () => {
    const r = mbrSelect(m, 3, 3);
    expect(Array.from(r.utilities)).toEqual([2, 2, 1]);
    expect(r.choice).toBe(0);
  });
  it('includes the self-pair when asked', () => {
    const r = mbrSelect(m, 3, 3, { includeSelf: true });
    expect(Array.from(r.utilities)).toEqual([13 / 3, 13 / 3, 11 / 3]);
    expect(r.choice).toBe(0);
  });
  it('takes the lowest utility for lower-is-better metrics', () => {
    expect(mbrSelect(m, 3, 3, { direction: 'lower' }).choice).toBe(2);
    expect(mbrSelect(Float64Array.of(0, 5, 5, 0), 2, 2, { direction: 'lower' }).choice).toBe(0);
  });
  it('weights the pseudo-references when given weights', () => {
    // Row 0: (2·1 + 3·3) / (2 + 3); row 1: (1·3 + 3·1) / (1 + 3); row 2: (1·0 + 2·2) / (1 + 2).
    const r = mbrSelect(m, 3, 3, { weights: Float64Array.of(1, 2, 3) });
    expect(Array.from(r.utilities)).toEqual([11 / 5, 6 / 4, 4 / 3]);
    expect(r.choice).toBe(0);
    expect(Array.from(mbrSelect(m, 3, 3, { weights: Float64Array.of(0, 1, 1) }).utilities)).toEqual([2, 1, 2]);
    expect(() => mbrSelect(m, 3, 3, { weights: Float64Array.of(0, 1, 0) })).toThrow(/sample 2's pseudo-references sum to zero/);
    expect(() => mbrSelect(m, 3, 3, { weights: Float64Array.of(1, -1, 1) })).toThrow(RangeError);
    expect(() => mbrSelect(m, 3, 3, { weights: Float64Array.of(1, 1) })).toThrow(RangeError);
  });

  it('takes separate pseudo-references only with self-pairs included', () => {
    expect(mbrSelect(Float64Array.of(1, 2, 3, 4, 5, 9), 2, 3, { includeSelf: true }).choice).toBe(1);
    expect(() => mbrSelect(Float64Array.of(1, 2, 3, 4, 5, 9), 2, 3)).toThrow(RangeError);
    expect(() => mbrSelect(Float64Array.of(1), 1, 1)).toThrow(RangeError);
    expect(() => mbrSelect(Float64Array.of(1, 2), 2, 2)).toThrow(RangeError);
  });
});
