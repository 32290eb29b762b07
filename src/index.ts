/**
 * Palette's public API: the metrics (BLEU and its flavors, chrF/chrF++, NIST, ROUGE, TER in two flavors, WER, PER,
 * GTM, ParaEval with its paraphrase tables) behind one `Metric`
 * contract, the helpers that score corpora and sentences with it, ROUGE-1.5.5's per-unit scorer, tokenizers, file
 * reading, and the `palette` CLI as a function. It is the portable core (./core.ts, `palette-mt/core`) plus the Node
 * adapter (./node/: files, worker pools, the kernels read from `build/`), installed on import.
 *
 * @example
 * ```ts
 * import { Bleu, corpusScore, readLines, Rouge } from 'palette-mt';
 * const hyps = readLines('sys.de');
 * const refs = readLines('ref.de');
 * const bleu = corpusScore(new Bleu(), hyps, [refs]); // { name: 'BLEU', score: 22.67…, verboseScore: '56.2/…' }
 * const rougeL = corpusScore(new Rouge({ type: 'rouge-l', flavor: 'rouge-score' }), hyps, [refs]); // score = mean F
 * ```
 */

export * from './core.js';
export * from './node/index.js';

// The worker pool that runs the engine's n-best scoring (scoreNbest, from the core) on several threads.
export { nbestPoolRunner, nbestWorkerPool } from './pool/nbest-pool.js';
// The worker pool that runs the engine's corpus scoring (scoreSystemRows, from the core) on several threads.
export { corpusWorkerPool } from './pool/corpus-pool.js';
// MERT's start points on worker threads (palette mert --threads N).
export { runMertOnPool } from './pool/mert-pool.js';

// The command line as a function (what bin/palette runs).
export { run, type CliIo } from './cli/main.js';
