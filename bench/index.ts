/**
 * The one benchmark entry: `npx tsx bench/index.ts [kernel|kernel-rouge|kernel-edit|text|e2e|corpus|rouge|tuning|mert|pool|nbest|nbest-memo|orange|paraeval|npchunk|nltk-sentence|meta|pairwise|all]` (default `all`).
 *   - kernel: n-gram statistics kernels alone (bench/kernel.ts)
 *   - kernel-rouge: ROUGE-L, ROUGE-S4 and ROUGE-W kernels alone (bench/kernel-rouge.ts)
 *   - kernel-edit: word Levenshtein (WER) with and without alignment, GTM (bench/kernel-edit.ts)
 *   - tuning: scoreFromTotals and selection scores over a statistics matrix (bench/tuning.ts)
 *   - mert:   one MERT line search and a whole mert -n 20 (1 and 2 threads) on the generated 1000 × 1000 list (bench/mert.ts)
 *   - pool:   BLEU counts of 1M hypotheses in-thread vs 1 and 2 piscina workers (bench/pool.ts)
 *   - text:   tokenization and interning (bench/text.ts)
 *   - e2e:    `palette score` from text files, all WMT17 en-de systems (bench/e2e.ts)
 *   - corpus: corpus scoring through the engine, 20 WMT21 en-de systems × BLEU, chrF, TER: per system vs distinct
 *             pairs, 1 and 2 threads, and cold `palette score` processes (one system, 20) beside `node -e 0`
 *             (bench/corpus.ts)
 *   - rouge:  `palette rouge155` on SummEval, the Rouge metric vs js-rouge, ROUGE-N statistics (bench/rouge.ts)
 *   - nbest:  `palette nbest -m bleu rouge-l rouge-s4 wer` (and bleu alone) on a generated 1000 × 1000 n-best list, cold
 *             process (1 and 2 workers) and in-process, stages per hypothesis fast vs generic path (bench/nbest.ts)
 *   - nbest-memo: the n-best fast path's chunk memo (warm and fresh) and msgpack statistics alone, µs per candidate (bench/nbest-memo.ts)
 *   - orange: `palette orange` with 10 metric variants in one pass on the generated 1000 × 1000 n-best list (bench/orange.ts)
 *   - paraeval: ParaEval hyps/s on TED sk-en and SummEval with the example, WordNet-exception and synthetic tables (bench/paraeval.ts)
 *   - npchunk: IMPACT and the NP-chunk metric hyps/s on TED sk-en and SummEval, chunking timed apart (bench/npchunk.ts)
 *   - nltk-sentence: CER, GLEU, RIBES, METEOR hyps/s on WMT21 en-de (bench/nltk-sentence.ts)
 *   - pairwise: all-pairs chrF, chrF++, BLEU and TER sentence scores on WMT21 en-de, global N × N and MBR per segment (bench/pairwise.ts)
 *   - meta:   sacreBLEU significance: bootstrap 1000 × 10k segments for BLEU, paired bs, AR 10k trials, numpy streams (bench/meta.ts)
 * Each scope prints its workload and its figures in domain units (hyps/s, tokens/s). Benchmarks never run in tests.
 */
// The benchmarks import src/ modules directly, so they install the Node adapter as the package main does.
import '../src/node/install.js';

const SCOPES: Record<string, () => Promise<void>> = {
  kernel: async () => (await import('./kernel.js')).benchKernel(),
  'kernel-rouge': async () => (await import('./kernel-rouge.js')).benchKernelRouge(),
  'kernel-edit': async () => (await import('./kernel-edit.js')).benchKernelEdit(),
  text: async () => (await import('./text.js')).benchText(),
  e2e: async () => (await import('./e2e.js')).benchE2e(),
  corpus: async () => (await import('./corpus.js')).benchCorpus(),
  rouge: async () => (await import('./rouge.js')).benchRouge(),
  tuning: async () => (await import('./tuning.js')).benchTuning(),
  mert: async () => (await import('./mert.js')).benchMert(),
  pool: async () => (await import('./pool.js')).benchPool(),
  nbest: async () => (await import('./nbest.js')).benchNbest(),
  'nbest-memo': async () => (await import('./nbest-memo.js')).benchNbestMemo(),
  orange: async () => (await import('./orange.js')).benchOrange(),
  paraeval: async () => (await import('./paraeval.js')).benchParaEval(),
  npchunk: async () => (await import('./npchunk.js')).benchNpChunk(),
  'nltk-sentence': async () => (await import('./nltk-sentence.js')).benchNltkSentence(),
  meta: async () => (await import('./meta.js')).benchMeta(),
  pairwise: async () => (await import('./pairwise.js')).benchPairwise(),
};

async function main(): Promise<void> {
  const scope = process.argv[2] ?? 'all';
  const names = scope === 'all' ? Object.keys(SCOPES) : [scope];
  for (const name of names) {
    const bench = SCOPES[name];
    if (bench === undefined) {
      console.error(`unknown benchmark scope "${scope}" (expected one of: ${[...Object.keys(SCOPES), 'all'].join(', ')})`);
      process.exitCode = 2;
      return;
    }
    console.log(`\n=== ${name} ===`);
    await bench();
  }
}

await main();
