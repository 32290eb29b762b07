/**
 * Corpus scores of several systems in a browser: inputs read as the CLI reads files (./read.ts), rows from the
 * corpus engine (src/engine/corpus/) with a pool of Web Workers (./worker-pool.ts) beside the calling thread, and
 * each system's corpus score, verbose score and signature from the metric's own reduction — the numbers `palette
 * score` prints, as data.
 */
import { InputError } from '../errors.js';
import { scoreSystemRows, SystemRowsError, type CorpusRunnerFactory } from '../engine/corpus/index.js';
import { defaultRegistry, type MetricRegistry, type MetricSettings } from '../metrics/registry.js';
import { checkHypothesisCount, checkReferenceStreams } from '../metrics/metric.js';
import { pyRstrip } from '../text/pystr.js';
import { readInputLines, type TextInput } from './read.js';
import { hardwareConcurrency } from './web-globals.js';

/** A system to score: its name (messages and results) and its output. */
export interface SystemInput {
  readonly name: string;
  readonly input: TextInput;
}

/** A reference stream: its name and text. */
export interface ReferenceInput {
  readonly name: string;
  readonly input: TextInput;
}

/** Where {@link scoreCorpora} is: reading (bytes of all inputs) or scoring ((hypothesis, metric) units). */
export interface ScoreProgress {
  readonly phase: 'read' | 'score';
  readonly done: number;
  readonly total: number;
}

/** Options of {@link scoreCorpora}. */
export interface ScoreCorporaOptions {
  /** Metric names as `palette score -m` takes them. */
  readonly metrics: readonly string[];
  /** Metric settings, as the CLI's metric flags make them. @default {} */
  readonly settings?: MetricSettings;
  /** Scoring threads: this one and `workers − 1` Web Workers. @default navigator.hardwareConcurrency */
  readonly workers?: number;
  /** The pool of workers (./worker-pool.ts `webWorkerPool()`); none scores in this thread alone. */
  readonly pool?: CorpusRunnerFactory;
  /**
   * Work ((distinct hypothesis, metric) units) below which no worker starts and this thread scores alone, as
   * `palette score` decides on Node: a worker's start costs more than it saves on small inputs. The rows are the
   * same either way. @default the engine's MIN_POOL_WORK
   */
  readonly minPoolWork?: number;
  /** Whether lines are `rstrip()`ped, as `palette score` does. @default true */
  readonly rstrip?: boolean;
  readonly onProgress?: (progress: ScoreProgress) => void;
  readonly registry?: MetricRegistry;
}

/** One metric's result for one system. */
export interface SystemScore {
  /** The metric's canonical id. */
  readonly metric: string;
  /** Its name in output (`BLEU`, `chrF2`, `TER`, `ROUGE-L`). */
  readonly name: string;
  readonly score: number;
  readonly verbose: string;
  readonly signature: string;
}

/** The scores of every system, in input order, each under every metric in the order given. */
export interface CorporaScores {
  readonly systems: readonly { readonly name: string; readonly scores: readonly SystemScore[] }[];
  /** Segments scored. */
  readonly segments: number;
  /** Threads that scored. */
  readonly threads: number;
}

/**
 * Reads and scores every system against the references.
 * @throws InputError for a bad input (empty, invalid UTF-8, line counts that differ: named by input), an unknown
 *   metric or a bad setting, or a metric's refusal of a line (named by system and line).
 */
export async function scoreCorpora(
  systems: readonly SystemInput[],
  references: readonly ReferenceInput[],
  options: ScoreCorporaOptions,
): Promise<CorporaScores> {
  const registry = options.registry ?? defaultRegistry;
  const settings = options.settings ?? {};
  const ids = [...new Set(options.metrics.map((m) => (registry.resolve === undefined ? m : registry.resolve(m, settings))))];
  const clis = ids.map((id) => registry.create(id, settings));
  const inputs = [...references, ...systems];
  const sizes = inputs.map((x) => (typeof x.input === 'string' ? x.input.length : 'size' in x.input ? x.input.size : x.input.byteLength));
  const totalBytes = sizes.reduce((a, b) => a + b, 0);
  let before = 0;
  const lines: string[][] = [];
  for (let k = 0; k < inputs.length; k++) {
    const at = before;
    const read = await readInputLines(inputs[k].input, inputs[k].name, {
      onProgress: (done) => options.onProgress?.({ phase: 'read', done: at + done, total: totalBytes }),
    });
    lines.push(options.rstrip === false ? read : read.map(pyRstrip));
    before += sizes[k];
    options.onProgress?.({ phase: 'read', done: before, total: totalBytes });
  }
  const refs = lines.slice(0, references.length);
  const hyps = lines.slice(references.length);
  refs.forEach((r, j) => {
    if (r.length !== refs[0].length) {
      throw new InputError('E_LINE_COUNT_MISMATCH', `has ${r.length} lines but ${references[0].name} has ${refs[0].length}`, {
        file: references[j].name,
      });
    }
  });
  const segments = checkReferenceStreams('the references', refs);
  hyps.forEach((h, k) => {
    try {
      checkHypothesisCount(h, segments);
    } catch (err) {
      if (err instanceof InputError && err.file === undefined) throw new InputError(err.code, err.message, { file: systems[k].name, line: err.line });
      throw err;
    }
  });
  let result;
  try {
    result = await scoreSystemRows(hyps, {
      metrics: ids,
      references: refs,
      settings,
      registry,
      built: { metrics: clis.map((c) => c.metric), prepared: clis.map((c) => c.metric.prepareReferences(refs)) },
      workers: options.pool === undefined ? 1 : (options.workers ?? hardwareConcurrency()),
      pool: options.pool,
      minPoolWork: options.minPoolWork,
      onProgress: (done, total) => options.onProgress?.({ phase: 'score', done, total }),
    });
  } catch (err) {
    if (err instanceof SystemRowsError) {
      throw new InputError(err.cause.code, err.cause.message, { file: systems[err.system].name, line: err.cause.line });
    }
    throw err;
  }
  return {
    systems: systems.map((s, k) => ({
      name: s.name,
      scores: clis.map((cli, m) => {
        const c = cli.corpusScore(result.rows[m][k]);
        return { metric: ids[m], name: c.name, score: c.score, verbose: c.verboseScore, signature: cli.signature(refs.length, false) };
      }),
    })),
    segments,
    threads: result.threads,
  };
}
