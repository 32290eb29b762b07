/**
 * `palette pairwise A_FILE B_FILE -m METRIC [--format tsv|msgpack|npy] [-o FILE]`: the |A| × |B| matrix of sentence
 * scores of every line of A against every line of B alone, through the engine's pairwise scorer
 * (src/engine/pairwise), a block of rows at a time so that memory stays bounded by the block; with `-j N`, blocks
 * are scored on N pool workers (src/pool/pairwise-pool.ts) and written in row order, the same bytes.
 *
 * Formats: `tsv`, |A| lines of |B| tab-separated scores as Python's `repr` prints the doubles (they read back to the
 * same doubles); `msgpack`, one MessagePack array of |B| numbers per row, back to back (msgpackr's encoding: integral
 * values as integers, others as float64); `npy`, numpy's `.npy` of a float64 |A| × |B| C-order matrix (./npy.ts).
 * A file goes through the atomic output file (../output-file.ts): written whole or not at all.
 *
 * Bad input (a missing or empty file, invalid UTF-8, a metric without pairwise scores, a bad option) ends the run with
 * `palette pairwise: error: …` and exit status 2, before the output file is touched.
 */
import { Packr } from 'msgpackr';
import { InputError, locate } from '../../errors.js';
import { PairwiseScorer, hasPairwise } from '../../engine/pairwise/index.js';
import type { Metric } from '../../metrics/metric.js';
import type { MetricRegistry, MetricSettings } from '../../metrics/registry.js';
import { readLines } from '../../node/read-lines.js';
import { EXIT_INPUT, EXIT_OK, type CliIo } from '../io.js';
import { checkOutputFile, openOutputFile, type OutputFile } from '../output-file.js';
import { pyFloatRepr } from '../py-format.js';
import { npyData, npyHeader } from './npy.js';
import { PAIRWISE_METRICS, pairwiseHelp, parsePairwiseArgs, type PairwiseFormat } from './options.js';

/** Rows scored and written at a time. */
const BLOCK_ROWS = 256;

/**
 * The metric `-m` names with `settings`, refused unless it has pairwise sentence scores.
 * @throws InputError `E_UNKNOWN_METRIC` for an unknown name or a metric without pairwise scores.
 */
export function pairwiseMetric(name: string, settings: MetricSettings, registry: MetricRegistry): Metric {
  const { metric } = registry.create(name, settings);
  if (!hasPairwise(metric)) {
    throw new InputError(
      'E_UNKNOWN_METRIC',
      `-m ${name}: no pairwise sentence scores for this metric with these settings; use one of ${PAIRWISE_METRICS.join(', ')}`,
    );
  }
  return metric;
}

/** Encodes a block of `rows × columns` scores in a format. */
function encodeBlock(format: PairwiseFormat, scores: Float64Array, rows: number, columns: number, packr: Packr): string | Uint8Array {
  if (format === 'npy') return npyData(scores);
  if (format === 'msgpack') {
    const parts: Uint8Array[] = [];
    for (let i = 0; i < rows; i++) parts.push(packr.pack(Array.from(scores.subarray(i * columns, (i + 1) * columns))));
    return Buffer.concat(parts);
  }
  let text = '';
  for (let i = 0; i < rows; i++) {
    const cells: string[] = new Array(columns);
    for (let j = 0; j < columns; j++) cells[j] = pyFloatRepr(scores[i * columns + j]);
    text += `${cells.join('\t')}\n`;
  }
  return text;
}

/** Runs `palette pairwise`; bad input is reported as `palette pairwise: error: FILE:LINE: message`, exit status 2. */
export async function runPairwiseCommand(argv: readonly string[], io: CliIo, registry: MetricRegistry): Promise<number> {
  try {
    return await pairwise(argv, io, registry);
  } catch (err) {
    if (!(err instanceof InputError)) throw err;
    io.stderr.write(`palette pairwise: error: ${locate(err.message, err.file, err.line)}\n`);
    return EXIT_INPUT;
  }
}

async function pairwise(argv: readonly string[], io: CliIo, registry: MetricRegistry): Promise<number> {
  const parsed = parsePairwiseArgs(argv);
  if (parsed.kind === 'help') {
    io.stdout.write(pairwiseHelp());
    return EXIT_OK;
  }
  const options = parsed.options;
  if (options.output !== undefined) checkOutputFile(options.output);
  const metric = pairwiseMetric(options.metric, options.settings, registry);
  const hyps = readLines(options.hypFile);
  const refs = readLines(options.refFile);
  const packr = new Packr({ useRecords: false });
  const out: OutputFile | null = options.output === undefined ? null : openOutputFile(options.output);
  const write = (chunk: string | Uint8Array): void => {
    if (out) out.write(chunk);
    else io.stdout.write(chunk as string);
  };
  try {
    if (options.format === 'npy') write(npyHeader(hyps.length, refs.length));
    const onBlock = (from: number, to: number, scores: Float64Array): void =>
      write(encodeBlock(options.format, scores, to - from, refs.length, packr));
    if (options.workers > 1 && hyps.length > BLOCK_ROWS) {
      const { pairwiseRowsOnPool } = await import('../../pool/pairwise-pool.js');
      await pairwiseRowsOnPool(options.metric, options.settings, hyps, refs, options.workers, BLOCK_ROWS, onBlock);
    } else {
      const scorer = new PairwiseScorer(metric, hyps, refs);
      for (let from = 0; from < scorer.rows; from += BLOCK_ROWS) {
        const to = Math.min(scorer.rows, from + BLOCK_ROWS);
        onBlock(from, to, scorer.scoreRows(from, to));
      }
    }
    out?.commit();
  } catch (err) {
    out?.abort();
    throw err;
  }
  return EXIT_OK;
}
