/**
 * IMPACT and NP-chunk metric speed (issue 7): hypotheses per second on the English-target data of ../shared/data,
 * with the chunking time reported apart from the scoring.
 *
 * Data: compare-mt TED sk-en (ted.sys1.eng, ted.sys2.eng against ted.ref.eng: 2 × 2,445 tokenized segments, one
 * reference) and SummEval (16 systems × 100 summaries, against reference 0 alone and against all 11 references).
 * Per workload:
 *   - IMPACT: references prepared (interned) once, then every system scored (text → statistics rows);
 *   - NP-chunk, compromise chunker: the chunking of the references (prepareReferences) and of every system's lines
 *     (chunkHypotheses) timed on their own, then the scoring of the chunked systems (statsOfChunked: NP
 *     correspondence, the weighted route search over all rounds, the phrase level);
 * as tinybench medians and process CPU time per call, in hyps/s. Corpus scores are printed so that the figures are
 * for a real computation. Skipped with a message when ../shared is absent.
 *
 * Run: npx tsx bench/index.ts npchunk
 */
import { sumRows } from '../src/metrics/metric.js';
import { Impact } from '../src/metrics/impact/impact.js';
import { NpChunk } from '../src/metrics/npchunk/npchunk.js';
import type { ChunkedCorpus } from '../src/metrics/npchunk/chunked-corpus.js';
import { englishWorkloads, fmt, hasEnglishData, measure, type Timing } from './english-workloads.js';

const line = (what: string, t: Timing, hyps: number, extra = ''): void =>
  console.log(
    `  ${what.padEnd(44)} ${fmt(t.median, 1).padStart(9)} ms median  ${fmt(t.cpu, 1).padStart(9)} ms CPU  ` +
      `${fmt((hyps / t.median) * 1000).padStart(9)} hyps/s${extra}`,
  );

/** The `npchunk` scope. */
export async function benchNpChunk(): Promise<void> {
  if (!hasEnglishData()) {
    console.log('  ../shared/data is absent: IMPACT / NP-chunk benchmark skipped');
    return;
  }
  for (const w of englishWorkloads()) {
    const hyps = w.systems.reduce((n, s) => n + s.length, 0);
    const refLines = w.refs.length * w.refs[0].length;
    console.log(`\n${w.name} (${hyps} hypotheses, ${refLines} reference lines)`);
    const iterations = hyps * w.refs.length > 20_000 ? 3 : 5;

    const impact = new Impact();
    const impactRefs = impact.prepareReferences(w.refs);
    let impactScore = 0;
    const ti = await measure(() => {
      impactScore = 0;
      for (const s of w.systems) impactScore += impact.scoreFromStats(sumRows(impact.segmentStats(s, impactRefs), 4)).score;
    }, iterations);
    line('IMPACT: score every system (text → rows)', ti, hyps, `  mean score ${fmt(impactScore / w.systems.length, 4)}`);

    const np = new NpChunk();
    const tr = await measure(() => np.prepareReferences(w.refs), 2);
    line('NP-chunk: chunk + intern the references', tr, refLines, ' (reference lines/s)');
    const npRefs = np.prepareReferences(w.refs);
    let chunked: ChunkedCorpus[] = [];
    const tc = await measure(() => {
      chunked = w.systems.map((s) => np.chunkHypotheses(s, npRefs));
    }, 2);
    line('NP-chunk: chunk + intern every system', tc, hyps);
    let npScore = 0;
    const ts = await measure(() => {
      npScore = 0;
      for (const c of chunked) npScore += np.scoreFromStats(sumRows(np.statsOfChunked(c, npRefs), 6)).score;
    }, iterations);
    line('NP-chunk: score the chunked systems', ts, hyps, `  mean score ${fmt(npScore / w.systems.length, 4)}`);
    const total = { median: tc.median + ts.median, cpu: tc.cpu + ts.cpu };
    line('NP-chunk: systems end to end (chunk + score)', total, hyps);
  }
}
