/**
 * Jackknifing over references (src/meta/jackknife.ts): per-segment averaged rows equal Palette's ROUGE
 * `jackknife: true` (ROUGE-1.5.5's convention) exactly, and the corpus-score reading is the plain mean of the
 * leave-one-out scores (checked against scoring each set by hand). Inline toy texts; the prepared-references path
 * (prepareLeaveOneOut) against the per-call path on the first 100 lines of WMT21 en-de with its 3 references
 * (test/fixtures/bleu, see its SOURCE.md).
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { corpusScore } from '../src/metrics/metric.js';
import { defaultRegistry } from '../src/metrics/registry.js';
import { jackknifeRows, jackknifeScore, leaveOneOutRows, prepareLeaveOneOut } from '../src/meta/jackknife.js';

const hyps = ['the cat sat on the mat', 'a quick brown fox jumps', 'police killed the gunman'];
const refs = [
  ['the cat was sitting on the mat', 'a fast brown fox jumped', 'the gunman was killed by police'],
  ['a cat sat on a mat', 'the quick brown fox jumps over', 'police shot the gunman dead'],
  ['on the mat sat the cat', 'quick brown foxes jump', 'the police killed the gunman'],
];

describe('jackknife over references', () => {
  for (const id of ['rouge-l', 'rouge-2', 'rouge-su4']) {
    it(`${id}: averaged leave-one-out rows score as ROUGE's own jackknife`, () => {
      const plain = defaultRegistry.create(id, { rouge: { jackknife: false } }).metric;
      const jack = defaultRegistry.create(id, { rouge: { jackknife: true } }).metric;
      const rows = jackknifeRows(plain, hyps, refs);
      const ours = plain.scoreFromStats(sumColumns(rows, plain.statsWidth));
      const theirs = corpusScore(jack, hyps, refs);
      expect(ours.score).toBe(theirs.score);
      for (const key of ['precision', 'recall', 'fmeasure']) expect(ours.details?.[key]).toBe(theirs.details?.[key]);
    });
  }

  it('bleu: the mean of the corpus scores against each leave-one-out set', () => {
    const bleu = defaultRegistry.create('bleu', {}).metric;
    const { perSet, mean } = jackknifeScore(bleu, hyps, refs);
    const byHand = [0, 1, 2].map((k) => corpusScore(bleu, hyps, refs.filter((_, j) => j !== k)).score);
    expect(perSet).toEqual(byHand);
    expect(mean).toBe((byHand[0] + byHand[1] + byHand[2]) / 3);
    expect(leaveOneOutRows(bleu, hyps, refs)).toHaveLength(3);
  });

  it('needs at least two reference streams', () => {
    const bleu = defaultRegistry.create('bleu', {}).metric;
    expect(() => jackknifeScore(bleu, hyps, refs.slice(0, 1))).toThrow(/at least 2 reference streams/);
  });
});

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'bleu');

function fixtureLines(name: string): string[] {
  return readFileSync(join(FIXTURES, name), 'utf8').replace(/\n$/, '').split('\n');
}

describe('jackknife from prepared leave-one-out references', () => {
  const system = fixtureLines('wmt21-head.Facebook-AI.de');
  const wmtRefs = ['A', 'C', 'D'].map((r) => fixtureLines(`wmt21-head.ref.${r}.de`));
  // Two candidate batches against one preparation: the prepared sets must not carry state from one batch to the next.
  const batches = [system, system.map((line) => line.toLowerCase())];

  for (const id of ['bleu', 'rouge-l']) {
    it(`${id}: the same rows, bit for bit, as preparing on every call`, () => {
      const metric = defaultRegistry.create(id, {}).metric;
      const prepared = prepareLeaveOneOut(metric, wmtRefs);
      expect(prepared.sets).toHaveLength(3);
      expect(prepared.segments).toBe(100);
      for (const hyps of batches) {
        const fresh = leaveOneOutRows(metric, hyps, wmtRefs);
        const reused = leaveOneOutRows(metric, hyps, prepared);
        expect(reused).toHaveLength(3);
        reused.forEach((rows, k) => expect(bits(rows)).toEqual(bits(fresh[k])));
        expect(bits(jackknifeRows(metric, hyps, prepared))).toEqual(bits(jackknifeRows(metric, hyps, wmtRefs)));
        expect(jackknifeScore(metric, hyps, prepared)).toEqual(jackknifeScore(metric, hyps, wmtRefs));
      }
    });
  }

  it('set k leaves reference stream k out', () => {
    const bleu = defaultRegistry.create('bleu', {}).metric;
    const rows = leaveOneOutRows(bleu, system, prepareLeaveOneOut(bleu, wmtRefs));
    for (let k = 0; k < 3; k++) {
      const alone = bleu.segmentStats(system, bleu.prepareReferences(wmtRefs.filter((_, j) => j !== k)));
      expect(bits(rows[k])).toEqual(bits(alone));
    }
  });

  it('preparing needs at least two reference streams', () => {
    const bleu = defaultRegistry.create('bleu', {}).metric;
    expect(() => prepareLeaveOneOut(bleu, wmtRefs.slice(0, 1))).toThrow(/at least 2 reference streams/);
  });
});

/** The bytes of a row array, so that equality is bit for bit (signed zeros and NaN payloads included). */
function bits(rows: Float64Array): Uint8Array {
  return new Uint8Array(rows.buffer, rows.byteOffset, rows.byteLength);
}

function sumColumns(rows: Float64Array, width: number): Float64Array {
  const out = new Float64Array(width);
  for (let i = 0; i < rows.length; i += width) for (let c = 0; c < width; c++) out[c] += rows[i + c];
  return out;
}
