/**
 * ORANGE of the Metric-API variants (src/meta/orange/metric-variants.ts): ParaEval with a paraphrase table, IMPACT,
 * and the NP-chunk metric with the bracketed chunker (pre-chunked text, so nothing depends on a tagger), scored in
 * blocks and rounds, against the oracle of test/reference/orange.ts that scores every text alone against every
 * leave-one-out set through the same registry metric; in the same pass as the other variants; on the worker pool
 * the same terms as in this thread; input errors at their file and line.
 */
import fc from 'fast-check';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { InputError } from '../src/errors.js';
import { orangeSentenceTerms } from '../src/meta/orange/orange.js';
import { evaluateOrange } from '../src/node/orange/evaluate.js';
import { parseOrangeMetrics } from '../src/meta/orange/variants.js';
import type { MetricSettings } from '../src/metrics/registry.js';
import { orangeBlockScores, orangeCaseArbitrary } from './helpers/orange-cases.js';
import { referenceLooScores, referenceOrangeTerms, type OrangeCase } from './reference/orange.js';

const fixture = (name: string): string => fileURLToPath(new URL(`./fixtures/orange/${name}`, import.meta.url));
const TOY_TABLE = fixture('paraphrase-toy.tsv');

const word = fc.constantFrom('a', 'b', 'c', 'the', 'of', 'Cat', 'cat', 'kitty', 'x', ',', '.');
/** Words, some of them grouped as `[NP … ]` (the bracketed chunker's markup). */
const chunkedText = (min: number) =>
  fc
    .array(fc.record({ words: fc.array(word, { minLength: 1, maxLength: 3 }), np: fc.boolean() }), { minLength: min, maxLength: 5 })
    .map((groups) => groups.map((g) => (g.np ? `[NP ${g.words.join(' ')} ]` : g.words.join(' '))).join(' '));


const plainText = (min: number) => fc.array(word, { minLength: min, maxLength: 9 }).map((w) => w.join(' '));

/** The fast scores equal the oracle's, scores and terms. */
function checkAgainstOracle(c: OrangeCase, names: string[], settings: MetricSettings, blockSentences: number): void {
  const fast = orangeBlockScores(c, names, settings, blockSentences);
  fast.variants.forEach((v, i) => {
    if (v.kind !== 'metric') return;
    const expected = referenceLooScores(v, c, settings);
    expect({ v: v.name, cand: fast.cand[i], refs: fast.refs[i] }).toEqual({
      v: v.name,
      cand: expected.map((s) => s.candidates),
      refs: expected.map((s) => s.references),
    });
    const terms = fast.cand[i].map(
      (cands, s) =>
        orangeSentenceTerms({
          candidates: Float64Array.from(cands),
          candidateOffsets: Int32Array.from([0, cands.length]),
          references: Float64Array.from(fast.refs[i][s]),
          referenceOffsets: Int32Array.from([0, fast.refs[i][s].length]),
        })[0],
    );
    expect(terms).toEqual(referenceOrangeTerms(v, c, settings));
  });
}

describe('Metric-API ORANGE variants against the oracle', () => {
  it('paraeval (precision and recall) and impact: blocks of 1 to 3 sentences, rounds over uneven n-best sizes', () => {
    fc.assert(
      fc.property(orangeCaseArbitrary(plainText), fc.integer({ min: 1, max: 3 }), fc.constantFrom('precision', 'recall'), (c, block, score) => {
        const settings: MetricSettings = {
          paraeval: { table: TOY_TABLE, score: score as 'precision' | 'recall' },
          npchunk: { alpha: 0.5, beta: 2 },
        };
        checkAgainstOracle(c, ['paraeval', 'impact'], settings, block);
      }),
      { numRuns: 30 },
    );
  });

  it('npchunk and impact with the bracketed chunker on pre-chunked text', () => {
    fc.assert(
      fc.property(orangeCaseArbitrary(chunkedText), fc.integer({ min: 1, max: 3 }), (c, block) => {
        checkAgainstOracle(c, ['npchunk', 'impact'], { npchunk: { chunker: 'bracketed', delta: 0.5 } }, block);
      }),
      { numRuns: 30 },
    );
  });

  it('npchunk with compromise on a tiny input', () => {
    const c: OrangeCase = {
      refStreams: [['The old man saw a big dog.'], ['An old man saw the large dog.'], ['The elderly man noticed a big dog.']],
      sentences: [{ id: 0, candidates: ['The old man saw the dog.', 'A dog saw a man.', ''] }],
    };
    checkAgainstOracle(c, ['npchunk'], { npchunk: { chunker: 'compromise' } }, 1);
  });

  it('in the same pass as the other variants: each scores as it does alone', () => {
    const c: OrangeCase = {
      refStreams: [['the cat sat on the mat', 'of a b'], ['a cat sat on a mat', 'a b c'], ['there is a kitty on the mat', 'the x']],
      sentences: [
        { id: 0, candidates: ['the cat is on the mat', 'cat mat', '', 'the kitty the'] },
        { id: 1, candidates: ['b a', 'x'] },
      ],
    };
    const settings: MetricSettings = { paraeval: { table: TOY_TABLE } };
    const names = ['bleus1-4', 'nist', 'rouge-l', 'wer', 'paraeval', 'impact', 'npchunk'];
    const all = orangeBlockScores(c, names, { ...settings, npchunk: { chunker: 'bracketed' } });
    for (const name of ['bleus4', 'wer', 'paraeval', 'impact', 'npchunk']) {
      const alone = orangeBlockScores(c, [name], { ...settings, npchunk: { chunker: 'bracketed' } });
      const i = all.variants.findIndex((v) => v.name === alone.variants[0].name);
      expect(alone.cand[0]).toEqual(all.cand[i]);
      expect(alone.refs[0]).toEqual(all.refs[i]);
    }
    // The table matters: without the kitty/cat pair ParaEval scores the third reference lower.
    const noTable = orangeBlockScores(c, ['paraeval'], { paraeval: { table: fixture('paraphrase.tsv') } });
    expect(noTable.refs[0]).not.toEqual(all.refs[all.variants.findIndex((v) => v.name === 'ParaEval')]);
  });
});

describe('evaluateOrange with Metric-API variants', () => {
  const refs = [0, 1, 2, 3].map((j) => fixture(`joshua.ref.${j}`));
  const settings: MetricSettings = { paraeval: { table: fixture('paraphrase.tsv') }, npchunk: { chunker: 'bracketed' } };
  const variants = parseOrangeMetrics(['bleus4', 'paraeval', 'impact', 'npchunk', 'wer']);

  it('the terms are the oracle terms; 2 workers give the in-thread terms, blocks of 1 and of all', async () => {
    const run = { nbest: fixture('joshua.nbest'), refs, variants, settings };
    const inThread = await evaluateOrange({ ...run, blockCandidates: 1 });
    const refStreams = refs.map((f) => readFileSync(f, 'utf8').trimEnd().split('\n'));
    const byId = new Map<number, string[]>();
    for (const line of readFileSync(fixture('joshua.nbest'), 'utf8').trimEnd().split('\n')) {
      const [id, hyp] = line.split(' ||| ');
      const list = byId.get(Number(id)) ?? [];
      list.push(hyp.trim());
      byId.set(Number(id), list);
    }
    const c: OrangeCase = { refStreams, sentences: [...byId].map(([id, candidates]) => ({ id, candidates })) };
    variants.forEach((v, i) => {
      if (v.kind === 'metric') expect(Array.from(inThread.terms[i])).toEqual(referenceOrangeTerms(v, c, settings));
    });
    for (const blockCandidates of [1, 1000]) {
      expect(await evaluateOrange({ ...run, blockCandidates, workers: 2 })).toEqual(inThread);
    }
  }, 60_000);

  it('input errors: bad or missing table, bad pre-chunked reference and candidate lines (in-thread and pooled)', async () => {
    const base = { nbest: fixture('joshua.nbest'), refs, variants: parseOrangeMetrics(['paraeval']) };
    await expect(evaluateOrange({ ...base, settings: { paraeval: { table: fixture('bad-paraphrase.tsv') } } })).rejects.toMatchObject({
      file: fixture('bad-paraphrase.tsv'),
      line: 1,
    });
    await expect(evaluateOrange({ ...base })).rejects.toThrow(/-m paraeval needs --paraphrase-table FILE/);
    const dir = mkdtempSync(join(tmpdir(), 'palette-orange-metrics-'));
    try {
      const badRef = join(dir, 'ref.2');
      const lines = readFileSync(refs[2], 'utf8').split('\n');
      lines[3] = `[NP ${lines[3]}`;
      writeFileSync(badRef, lines.join('\n'));
      const chunked = { variants: parseOrangeMetrics(['npchunk']), settings: { npchunk: { chunker: 'bracketed' } } };
      await expect(evaluateOrange({ ...base, ...chunked, refs: [refs[0], refs[1], badRef, refs[3]] })).rejects.toMatchObject({
        file: badRef,
        line: 4,
      });
      const badNbest = join(dir, 'nbest');
      const nbest = readFileSync(fixture('joshua.nbest'), 'utf8').split('\n');
      nbest[20] = nbest[20].replace(' ||| ', ' ||| ] ');
      writeFileSync(badNbest, nbest.join('\n'));
      for (const workers of [1, 2]) {
        const run = evaluateOrange({ ...base, ...chunked, nbest: badNbest, workers, blockCandidates: 3 });
        await expect(run).rejects.toThrow(InputError);
        await expect(run).rejects.toMatchObject({ file: badNbest, line: 21 });
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
