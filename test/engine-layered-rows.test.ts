/**
 * The layering of n candidates per segment (src/engine/layered-rows.ts), which the Metric API's statistics matrix
 * and the n-best engine's per-metric path share: each candidate's row equals the row `segmentStats` gives it alone
 * in its segment's position, with every other position holding something else (here the segment's first
 * reference), for groups of unequal sizes, groups in a sparse subset of the prepared segments (the engine's
 * whole-reference path) and an empty group. Joshua's bn-en slice (test/fixtures/nbest-joshua, 4 references).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { layeredRows } from '../src/engine/layered-rows.js';
import { Bleu } from '../src/metrics/bleu/bleu.js';
import { Chrf } from '../src/metrics/chrf/chrf.js';
import type { Metric, PreparedReferences } from '../src/metrics/metric.js';
import { Nist } from '../src/metrics/nist/nist.js';
import { defaultRegistry } from '../src/metrics/registry.js';

const FIX = join(import.meta.dirname, 'fixtures', 'nbest-joshua');
const read = (name: string): string[] => readFileSync(join(FIX, name), 'utf8').split('\n').slice(0, -1);
const refStreams = [0, 1, 2, 3].map((k) => read(`reference.en.${k}`));
const segments = refStreams[0].length;
const bySegment: string[][] = Array.from({ length: segments }, () => []);
for (const line of read('output.nbest')) {
  const [id, hyp] = line.split(' ||| ');
  bySegment[Number(id)].push(hyp);
}

const registryMetric = (id: string): Metric => defaultRegistry.create(defaultRegistry.resolve!(id, {}), {}).metric;
const METRICS: [string, () => Metric][] = [
  ['BLEU', () => new Bleu()],
  ['chrF++', () => new Chrf({ wordOrder: 2 })],
  ['NIST', () => new Nist()],
  ...['ter', 'rouge-l', 'rouge-su4', 'wer', 'per', 'gtm'].map((id): [string, () => Metric] => [id, () => registryMetric(id)]),
];

/** Each candidate's row on its own: its segment's position holds it, every other one its segment's first reference. */
function aloneRows(metric: Metric, prepared: PreparedReferences, groups: string[][], slots: number[]): Float64Array {
  const w = metric.statsWidth;
  const out: number[] = [];
  groups.forEach((group, g) => {
    for (const hyp of group) {
      const layer = refStreams[0].slice();
      layer[slots[g]] = hyp;
      out.push(...metric.segmentStats(layer, prepared).subarray(slots[g] * w, (slots[g] + 1) * w));
    }
  });
  return Float64Array.from(out);
}

function starts(groups: string[][]): Int32Array {
  const offsets = new Int32Array(groups.length + 1);
  groups.forEach((g, i) => (offsets[i + 1] = offsets[i] + g.length));
  return offsets;
}

describe.each(METRICS)('%s', (_name, make) => {
  const metric = make();
  const prepared = metric.prepareReferences(refStreams);

  it('groups of 1 to 10 candidates, one per segment: every row is the candidate scored alone', () => {
    // Segment s keeps (s % 10) + 1 of its candidates, so most layers have exhausted segments.
    const groups = bySegment.map((c, s) => c.slice(0, (s % 10) + 1));
    const slots = groups.map((_, s) => s);
    const rows = layeredRows(metric, prepared, groups.flat(), starts(groups));
    expect(rows).toEqual(aloneRows(metric, prepared, groups, slots));
  });

  it('groups in a sparse subset of the prepared segments (one of them empty)', () => {
    const slots = [1, 4, 5, 9, 11];
    const groups = slots.map((s, g) => (g === 2 ? [] : bySegment[s].slice(0, 7 - g)));
    const rows = layeredRows(metric, prepared, groups.flat(), starts(groups), (g) => slots[g]);
    expect(rows.length).toBe(groups.flat().length * metric.statsWidth);
    expect(rows).toEqual(aloneRows(metric, prepared, groups, slots));
  });
});
