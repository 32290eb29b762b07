/**
 * The fast ParaEval (flat table, trie walk, stamped counters, one-reference shortcut) against the plain oracle of
 * test/reference/paraeval.ts: random tables of 1–3-word phrases over a tiny vocabulary (so that phrases overlap,
 * nest, repeat and chain into sets), random minimum lengths, candidates and 1–4 references of 0–14 words, several
 * segments per batch; rows must be equal, and the table's sets must be the oracle's partition.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ParaEval } from '../src/metrics/paraeval/paraeval.js';
import { parseParaphraseTable } from '../src/text/paraphrase/index.js';
import { oracleParaEvalRow, oracleSets, oracleTable } from './reference/paraeval.js';

const WORDS = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
const word = fc.constantFrom(...WORDS);
const phrase = fc.array(word, { minLength: 1, maxLength: 3 }).map((w) => w.join(' '));
const pairs = fc.array(fc.tuple(phrase, phrase), { minLength: 1, maxLength: 12 });
const sentence = fc.array(word, { minLength: 0, maxLength: 14 });

const caseArb = fc.record({
  pairs,
  minWords: fc.integer({ min: 1, max: 3 }),
  nRefs: fc.integer({ min: 1, max: 4 }),
  segments: fc.integer({ min: 1, max: 4 }),
}).chain((c) =>
  fc.record({
    ...Object.fromEntries(Object.entries(c).map(([k, v]) => [k, fc.constant(v)])),
    hyps: fc.array(sentence, { minLength: c.segments, maxLength: c.segments }),
    refs: fc.array(fc.array(sentence, { minLength: c.segments, maxLength: c.segments }), {
      minLength: c.nRefs,
      maxLength: c.nRefs,
    }),
  }) as fc.Arbitrary<typeof c & { hyps: string[][]; refs: string[][][] }>,
);

describe('ParaEval against the plain oracle', () => {
  it('same statistics rows and the same paraphrase sets', () => {
    fc.assert(
      fc.property(caseArb, ({ pairs, minWords, hyps, refs }) => {
        const tsv = pairs.map(([a, b]) => `${a}\t${b}`).join('\n');
        const table = parseParaphraseTable(tsv, 'random.tsv', { minWords, tokenize: 'none' });
        const oracle = oracleTable(pairs, minWords);
        expect(table.sets().map((s) => [...s].sort()).sort((x, y) => (x[0] < y[0] ? -1 : 1))).toEqual(oracleSets(oracle));
        const metric = new ParaEval({ table });
        const rows = metric.segmentStats(
          hyps.map((h) => h.join(' ')),
          metric.prepareReferences(refs.map((stream) => stream.map((r) => r.join(' ')))),
        );
        hyps.forEach((h, i) => {
          const expected = oracleParaEvalRow(h, refs.map((stream) => stream[i]), oracle);
          expect(Array.from(rows.subarray(6 * i, 6 * i + 6)), `segment ${i}`).toEqual(expected);
        });
      }),
      { numRuns: 400 },
    );
  });

  it('one metric scores test sets prepared in turn (its scratch is reused or regrown) as fresh metrics do', () => {
    const table = parseParaphraseTable('a b\tc\nd\te f', 't.tsv', { tokenize: 'none' });
    const shared = new ParaEval({ table });
    const sets: [string[], string[][]][] = [
      [['a b x', 'd y'], [['c x', 'e f y']]],
      [['p q r s c', 'a b t u v w'], [['p q r s a b', 'c t u v w z1 z2 z3'], ['d', 'e f']]],
      [['c'], [['a b']]],
    ];
    for (const [hyps, refs] of sets) {
      const fresh = new ParaEval({ table });
      expect(Array.from(shared.segmentStats(hyps, shared.prepareReferences(refs)))).toEqual(
        Array.from(fresh.segmentStats(hyps, fresh.prepareReferences(refs))),
      );
      hyps.forEach((h, i) => {
        const expected = oracleParaEvalRow(h.split(' '), refs.map((r) => r[i].split(' ')), oracleTable([['a b', 'c'], ['d', 'e f']]));
        expect(Array.from(shared.segmentStats(hyps, shared.prepareReferences(refs)).subarray(6 * i, 6 * i + 6))).toEqual(expected);
      });
    }
  });

  it('hypothesis words that neither the table nor any reference has match nothing', () => {
    const table = parseParaphraseTable('a b\tc', 't.tsv', { tokenize: 'none' });
    const metric = new ParaEval({ table });
    const rows = metric.segmentStats(['zz c yy a b'], metric.prepareReferences([['c x a b']]));
    expect(Array.from(rows)).toEqual(oracleParaEvalRow(['zz', 'c', 'yy', 'a', 'b'], [['c', 'x', 'a', 'b']], oracleTable([['a b', 'c']])));
    expect(Array.from(rows)).toEqual([3, 3, 5, 3, 3, 4]);
  });
});
