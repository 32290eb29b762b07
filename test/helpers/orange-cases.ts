/**
 * ORANGE oracle cases (test/reference/orange.ts) for the scorer's tests: a fast-check generator of them (2–4
 * reference streams over 1–4 sentences, each sentence with 1–5 candidates, so the rounds must pad the sentences with
 * fewer), and a case scored by the one-pass OrangeScorer in the oracle's nested-array shape.
 */
import fc from 'fast-check';
import { OrangeScorer } from '../../src/meta/orange/scorer.js';
import { parseOrangeMetrics } from '../../src/meta/orange/variants.js';
import type { MetricSettings } from '../../src/metrics/registry.js';
import type { OrangeCase } from '../reference/orange.js';

/**
 * Cases whose lines come from `text(min)`: `text(1)` for references (never empty), `text(0)` for candidates
 * (empty ones included).
 */
export function orangeCaseArbitrary(text: (min: number) => fc.Arbitrary<string>): fc.Arbitrary<OrangeCase> {
  return fc
    .record({ u: fc.integer({ min: 2, max: 4 }), segments: fc.integer({ min: 1, max: 4 }) })
    .chain(({ u, segments }) =>
      fc.record({
        refStreams: fc.array(fc.array(text(1), { minLength: segments, maxLength: segments }), { minLength: u, maxLength: u }),
        sentences: fc
          .array(fc.array(text(0), { minLength: 1, maxLength: 5 }), { minLength: segments, maxLength: segments })
          .map((cs) => cs.map((candidates, id) => ({ id, candidates }))),
      }),
    );
}

/**
 * Scores case `c` under the ORANGE variants `names` with the one-pass scorer, one `scoreBlock` call per
 * `blockSentences` sentences: per variant, each sentence's candidate scores and its u leave-one-out reference scores.
 */
export function orangeBlockScores(c: OrangeCase, names: string[], settings: MetricSettings = {}, blockSentences = 1000) {
  const variants = parseOrangeMetrics(names);
  const scorer = new OrangeScorer(variants, c.refStreams, settings);
  const u = c.refStreams.length;
  const cand = variants.map(() => [] as number[][]);
  const refs = variants.map(() => [] as number[][]);
  for (let from = 0; from < c.sentences.length; from += blockSentences) {
    const block = c.sentences.slice(from, from + blockSentences);
    const offsets = [0];
    for (const s of block) offsets.push(offsets[offsets.length - 1] + s.candidates.length);
    const out = scorer.scoreBlock(
      Int32Array.from(block.map((s) => s.id)),
      block.flatMap((s) => s.candidates),
      Int32Array.from(offsets),
    );
    variants.forEach((_, v) => {
      block.forEach((_, i) => {
        cand[v].push(Array.from(out.candidates[v].subarray(offsets[i], offsets[i + 1])));
        refs[v].push(Array.from(out.references[v].subarray(i * u, (i + 1) * u)));
      });
    });
  }
  return { variants, cand, refs };
}
