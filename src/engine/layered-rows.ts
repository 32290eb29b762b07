/**
 * Statistics rows of several candidates per segment from a metric that scores one hypothesis per segment
 * (`Metric.segmentStats`: hypothesis i against segment i of the prepared references). The candidates are scored in
 * layers: layer k holds the k-th candidate of every segment, and each layer is one ordinary `segmentStats` call, so
 * the cost is one batch per layer (the largest number of candidates of a segment), not one per candidate.
 *
 * A position of a layer that no candidate fills (a segment whose candidates have run out, or a prepared segment
 * that has no candidate at all) holds the empty hypothesis, and its row is dropped. Those rows never reach a
 * caller: an n-best list's rows, as Moses' `extractor` writes them and MERT reads them, are one per real
 * candidate, however many a sentence has. The empty hypothesis is an input every metric accepts (a system may
 * output an empty line) and the cheapest one to score; a row depends only on its own hypothesis and its segment's
 * references, so what fills the other positions never changes it.
 *
 * The Metric API's statistics matrix (src/tuning/stats-matrix.ts) and the n-best engine's per-metric path
 * (./nbest/nbest-metrics.ts) both build their rows here.
 */
import type { Metric, PreparedReferences } from '../metrics/metric.js';

/**
 * Rows of candidates grouped by segment, `metric.statsWidth` numbers each, in candidate order.
 * @param prepared references prepared by `metric.prepareReferences`; a layer has `prepared.segments` positions.
 * @param hyps candidates, group after group.
 * @param groupStarts candidates of group g are `groupStarts[g] .. groupStarts[g + 1]` (`groups + 1` offsets).
 * @param slotOf the prepared segment of group g (default: g itself), all distinct and below `prepared.segments`.
 */
export function layeredRows<P extends PreparedReferences>(
  metric: Metric<P>,
  prepared: P,
  hyps: readonly string[],
  groupStarts: ArrayLike<number>,
  slotOf: (group: number) => number = (group) => group,
): Float64Array {
  const groups = groupStarts.length - 1;
  const width = metric.statsWidth;
  const out = new Float64Array(hyps.length * width);
  let layers = 0;
  for (let g = 0; g < groups; g++) layers = Math.max(layers, groupStarts[g + 1] - groupStarts[g]);
  const layer = new Array<string>(prepared.segments).fill('');
  for (let k = 0; k < layers; k++) {
    for (let g = 0; g < groups; g++) {
      const h = groupStarts[g] + k;
      layer[slotOf(g)] = h < groupStarts[g + 1] ? hyps[h] : '';
    }
    const rows = metric.segmentStats(layer, prepared);
    for (let g = 0; g < groups; g++) {
      const h = groupStarts[g] + k;
      if (h < groupStarts[g + 1]) {
        const at = slotOf(g) * width;
        out.set(rows.subarray(at, at + width), h * width);
      }
    }
  }
  return out;
}
