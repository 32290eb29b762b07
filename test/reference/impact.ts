/**
 * Reference implementation (oracle) of IMPACT as Palette reads it (src/metrics/impact/impact.ts): the NP-chunk metric's
 * word level with every weight 1 (test/reference/npchunk.ts), on whitespace-separated words.
 */
import { npChunkSentenceRef, type NpChunkRefParams } from './npchunk.js';

/** IMPACT of one hypothesis against its references; `score, recall, precision`. */
export function impactSentenceRef(
  hyp: string,
  refs: readonly string[],
  params: Omit<NpChunkRefParams, 'delta'>,
): { score: number; recall: number; precision: number } {
  const words = (s: string) => s.split(/\s+/).filter((w) => w !== '');
  const r = npChunkSentenceRef(
    { words: words(hyp), nps: [] },
    refs.map((ref) => ({ words: words(ref), nps: [] })),
    { ...params, delta: 0 },
    false,
  );
  return { score: r.score, recall: r.wordRecall, precision: r.wordPrecision };
}
