/**
 * `palette mbr -m METRIC[:WEIGHT] …`: the utility's metrics and weights as the command line gives them, and the
 * `--scores` records in JSON lines or MessagePack.
 */
import { Packr } from 'msgpackr';
import { InputError } from '../../errors.js';
import type { UtilitySpec } from '../../engine/pairwise/index.js';
import type { MetricRegistry } from '../../metrics/registry.js';
import type { ParsedValue } from '../args.js';
import type { OutputFile } from '../output-file.js';

/** A decimal number as people write weights: 0.5, 1, .25, 2e-1 (no sign: weights are non-negative). */
const WEIGHT = /^(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/**
 * The metrics of `-m`, each `NAME` or `NAME:WEIGHT`.
 * @throws InputError `E_BAD_OPTION` without a metric, for a weight that is not a non-negative decimal number, or
 *   for weights that sum to zero.
 */
export function readUtilitySpecs(values: ReadonlyMap<string, ParsedValue>, registry: MetricRegistry): UtilitySpec[] {
  const v = values.get('metric');
  const items = v === undefined ? [] : Array.isArray(v) ? v : [String(v)];
  if (items.length === 0) throw new InputError('E_BAD_OPTION', 'a metric is required (-m chrf, -m bleu, -m chrf:0.5 bleu:0.5, …)');
  const specs = items.map((item): UtilitySpec => {
    const colon = item.indexOf(':');
    const name = colon < 0 ? item : item.slice(0, colon);
    let weight: number | undefined;
    if (colon >= 0) {
      const text = item.slice(colon + 1);
      weight = WEIGHT.test(text) ? Number(text) : NaN;
      if (!Number.isFinite(weight)) {
        throw new InputError('E_BAD_OPTION', `-m ${item}: the weight ${JSON.stringify(text)} is not a non-negative number (write METRIC:WEIGHT, e.g. chrf:0.5)`);
      }
    }
    return { metric: name, weight, direction: registry.describe?.(name)?.direction ?? 'higher' };
  });
  if (specs.length > 1 || specs[0].weight !== undefined) {
    if (!specs.some((t) => (t.weight ?? 1) > 0)) {
      throw new InputError('E_BAD_OPTION', `-m ${items.join(' ')}: the weights sum to zero (give at least one metric a positive weight)`);
    }
  }
  return specs;
}

/** Formats of `--scores`. */
export const SCORES_FORMATS = ['jsonl', 'msgpack'] as const;
/** A format of `--scores`. */
export type ScoresFormat = (typeof SCORES_FORMATS)[number];

/**
 * The `--scores-format` value.
 * @throws InputError `E_BAD_OPTION` for another.
 */
export function readScoresFormat(text: string | undefined): ScoresFormat {
  const format = (text ?? 'jsonl') as ScoresFormat;
  if (!SCORES_FORMATS.includes(format)) {
    throw new InputError('E_BAD_OPTION', `--scores-format must be one of ${SCORES_FORMATS.join(', ')} (got ${JSON.stringify(text)})`);
  }
  return format;
}

/** Writes one segment's record `{segment, choice, utilities}` per call, in the format asked for. */
export function scoresWriter(out: OutputFile, format: ScoresFormat): (segment: number, choice: number, utilities: Float64Array) => void {
  if (format === 'jsonl') {
    return (segment, choice, utilities) => out.write(`${JSON.stringify({ segment, choice, utilities: Array.from(utilities) })}\n`);
  }
  const packr = new Packr({ useRecords: false });
  return (segment, choice, utilities) => out.write(packr.pack({ segment, choice, utilities: Array.from(utilities) }));
}
