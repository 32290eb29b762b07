/**
 * fast-check generator of ORANGE oracle cases (test/reference/orange.ts) for the property tests: 2–4 reference
 * streams over 1–4 sentences, each sentence with 1–5 candidates, so the rounds must pad the sentences with fewer.
 */
import fc from 'fast-check';
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
