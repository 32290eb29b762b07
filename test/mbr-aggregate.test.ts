/**
 * MBR with reference aggregation (`mbrDecode(…, { aggregate: true })`, `palette mbr --aggregate`) equals the plain
 * oracle of test/reference/mbr-aggregate.ts for chrF, chrF++ and BLEU: self left out or counted, separate
 * pseudo-references, weights; one pseudo-reference aggregates to itself (the exact pair score); the n-gram bags'
 * pair statistics are the metric's segmentStats rows; metrics without aggregation and --matrix are refused.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mbrDecode, pairwiseScores, pairwiseStageOf } from '../src/engine/pairwise/index.js';
import { InputError } from '../src/errors.js';
import { Bleu } from '../src/metrics/bleu/bleu.js';
import { Chrf } from '../src/metrics/chrf/chrf.js';
import type { Metric } from '../src/metrics/metric.js';
import { Ter } from '../src/metrics/ter/ter.js';
import { cliRunner, expectInputError } from './helpers/cli.js';
import { aggregateBleu, aggregateChrf } from './reference/mbr-aggregate.js';

const fixture = JSON.parse(readFileSync(new URL('fixtures/pairwise/wmt21-en-de-5.json', import.meta.url), 'utf8')) as {
  segments: { samples: string[] }[];
};
/** Sample streams of the fixture (stream k = sample k of every segment), plus corner texts as a sixth segment. */
const CORNERS = ['', 'a', 'the the the the the', 'Der Hund bellt, der Hund bellt!', 'x y', '日本語のテキスト'];
const segments = [...fixture.segments.map((s) => s.samples.slice(0, 12)), [...CORNERS, ...CORNERS.slice(0, 6).reverse()]];
const streams = segments[0].map((_, k) => segments.map((seg) => seg[k]));

const metrics: [string, Chrf | Bleu][] = [
  ['chrF', new Chrf()],
  ['chrF++', new Chrf({ wordOrder: 2 })],
  ['chrF eps, lowercase, whitespace', new Chrf({ epsSmoothing: true, lowercase: true, whitespace: true })],
  ['BLEU', new Bleu({ effectiveOrder: true })],
  ['BLEU lowercase intl', new Bleu({ effectiveOrder: true, lowercase: true, tokenize: 'intl' })],
];

function oracle(metric: Chrf | Bleu, samples: string[], refs: string[], weights: number[] | undefined, leaveOutSelf: boolean): number[] {
  return metric instanceof Chrf
    ? aggregateChrf(metric, samples, refs, weights, leaveOutSelf)
    : aggregateBleu(metric, samples, refs, weights, leaveOutSelf);
}

const relClose = (a: number, b: number): boolean => Math.abs(a - b) <= 1e-12 * Math.max(1, Math.abs(b));

describe('mbrDecode with aggregate: the oracle of test/reference/mbr-aggregate.ts', () => {
  for (const [label, metric] of metrics) {
    it(`${label}: self left out and self counted (uniform weights: the same doubles)`, () => {
      for (const includeSelf of [false, true]) {
        const got = mbrDecode(metric, streams, { aggregate: true, includeSelf });
        segments.forEach((samples, s) => {
          const want = oracle(metric, samples, samples, undefined, !includeSelf);
          expect(Array.from(got[s].utilities)).toEqual(want);
          expect(got[s].choice).toBe(want.indexOf(Math.max(...want)));
        });
      }
    });

    it(`${label}: weights and separate pseudo-references`, () => {
      const pseudoRefs = streams.slice(0, 5).map((stream) => stream.map((t) => `${t} und so`));
      const weightStreams = pseudoRefs.map((_, r) => segments.map((_, s) => ((r * 7 + s * 3) % 5) * 0.37));
      const got = mbrDecode(metric, streams, { aggregate: true, pseudoRefs, weightStreams });
      segments.forEach((samples, s) => {
        const want = oracle(metric, samples, pseudoRefs.map((p) => p[s]), weightStreams.map((w) => w[s]), false);
        got[s].utilities.forEach((u, i) => {
          if (!relClose(u, want[i])) throw new Error(`${label} segment ${s + 1} sample ${i}: ${u} ≠ ${want[i]}`);
        });
      });
      const weighted = mbrDecode(metric, streams, { aggregate: true, weightStreams: streams.map((_, r) => segments.map((_, s) => (r + s) % 3)) });
      segments.forEach((samples, s) => {
        const w = streams.map((_, r) => (r + s) % 3);
        const want = oracle(metric, samples, samples, w, true);
        weighted[s].utilities.forEach((u, i) => {
          if (!relClose(u, want[i])) throw new Error(`${label} weighted segment ${s + 1} sample ${i}: ${u} ≠ ${want[i]}`);
        });
      });
    });

    it(`${label}: one pseudo-reference aggregates to itself (the pair's exact score)`, () => {
      const pseudoRefs = [streams[3]];
      const got = mbrDecode(metric, streams, { aggregate: true, pseudoRefs });
      segments.forEach((samples, s) => {
        const m = pairwiseScores(metric, samples, [pseudoRefs[0][s]]);
        expect(Array.from(got[s].utilities)).toEqual(Array.from(m));
      });
    });
  }

  it('the n-gram bags\' pair statistics are the metric\'s segmentStats rows, for any range', () => {
    const texts = segments[5].concat(segments[0].slice(0, 4));
    for (const [, typed] of metrics) {
      const metric = typed as Metric;
      const stage = pairwiseStageOf(metric);
      const refs = stage.references(texts.slice(2));
      const hyps = stage.hypotheses(texts, refs);
      const rows = stage.pairStats(hyps, 1, 6, refs, 3, 9);
      const w = metric.statsWidth;
      for (let i = 1; i < 6; i++) {
        for (let j = 3; j < 9; j++) {
          const want = metric.segmentStats([texts[i]], metric.prepareReferences([[texts[2 + j]]]));
          const at = ((i - 1) * 6 + (j - 3)) * w;
          expect(Array.from(rows.subarray(at, at + w))).toEqual(Array.from(want));
        }
      }
    }
  });

  it('refuses a metric without aggregation, and a segment whose weights left sum to zero (its line)', () => {
    expect(() => mbrDecode(new Ter(), streams, { aggregate: true })).toThrow(/no reference aggregation/);
    const weightStreams = streams.map((_, r) => segments.map((_, s) => (s === 2 && r > 0 ? 0 : 1)));
    // Segment 3: only sample 0 weighs anything, so sample 0's aggregate (its own left out) has no weight.
    const err = (() => {
      try {
        mbrDecode(new Chrf(), streams, { aggregate: true, weightStreams });
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(err).toBeInstanceOf(InputError);
    expect((err as InputError).line).toBe(3);
    expect((err as InputError).message).toMatch(/sum to zero/);
  });
});

describe('palette mbr --aggregate', () => {
  const mbr = cliRunner(['mbr']);
  const dir = mkdtempSync(join(tmpdir(), 'palette-mbr-agg-'));
  const files = streams.map((stream, k) => {
    const f = join(dir, `s${k}.txt`);
    writeFileSync(f, `${stream.join('\n')}\n`);
    return f;
  });

  it('prints the aggregate choice and writes the aggregate utilities (chrF++ and BLEU, -j 1 and -j 2)', async () => {
    for (const [args, metric] of [[['-m', 'chrf', '--chrf-word-order', '2'], new Chrf({ wordOrder: 2 })], [['-m', 'bleu'], new Bleu({ effectiveOrder: true })]] as const) {
      const outs: string[] = [];
      for (const j of ['1', '2']) {
        const scores = join(dir, `agg-${j}.jsonl`);
        const r = await mbr(['--samples', ...files, ...args, '--aggregate', '--scores', scores, '-j', j]);
        expect(r.err).toBe('');
        expect(r.code).toBe(0);
        const rows = readFileSync(scores, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as { choice: number; utilities: number[] });
        rows.forEach((row, s) => {
          const want = oracle(metric, segments[s], segments[s], undefined, true);
          expect(row.utilities).toEqual(want);
          expect(r.out.split('\n')[s]).toBe(segments[s][row.choice]);
        });
        outs.push(r.out + readFileSync(scores, 'utf8'));
      }
      expect(outs[1]).toBe(outs[0]);
    }
  }, 60_000);

  it('refuses ter and --matrix with exit status 2', async () => {
    expectInputError(await mbr(['--samples', ...files, '-m', 'ter', '--aggregate']), 'mbr', /no reference aggregation/);
    expectInputError(await mbr(['--samples', ...files, '-m', 'chrf', '--aggregate', '--matrix', join(dir, 'm.npy')]), 'mbr', /--aggregate .*no matrix/);
  });
});
