/**
 * Input that is valid and scored exactly as sacreBLEU / rouge-score would score it, but that is probably not what
 * the user meant: each gives one warning line on standard error (never a changed number), and `-q` silences them.
 *
 * - A UTF-8 byte-order mark at the start of a file: sacreBLEU reads files as `utf-8`, not `utf-8-sig`, so U+FEFF
 *   stays part of the first segment's text (and of its first token), and Palette keeps it too.
 * - A single reference file whose lines hold tabs, without `-nr`: each line is then one reference with tabs in it,
 *   where `-nr N` would have split it into N references.
 * - `rouge-lsum` where no summary has a second sentence under the split rule: summary-level ROUGE-L over one
 *   sentence is sentence-level ROUGE-L, so the number equals `rouge-l`'s.
 */
import type { Metric } from '../metrics/metric.js';
import type { CliMetric } from '../metrics/registry.js';
import type { Rouge } from '../metrics/rouge/rouge.js';
import { sentenceSplitName, splitSentences } from '../text/rouge/sentence-split.js';

/** A file as it was read: its name (as errors name it) and its lines. */
export interface ReadFile {
  readonly file: string;
  readonly lines: readonly string[];
}

const BOM = 0xfeff;

/** The BOM warning of `f`, if its first line starts with U+FEFF. */
export function bomWarning(f: ReadFile): string | undefined {
  if (f.lines.length === 0 || f.lines[0].charCodeAt(0) !== BOM) return undefined;
  return (
    `${f.file}: starts with a UTF-8 byte-order mark (U+FEFF); it is kept as part of the first line's text, as ` +
    'sacreBLEU keeps it, and may change that line\'s score (remove it if it is not meant to be scored)'
  );
}

/**
 * The tab warning for the reference files of a run with `numRefs` references per line; `remedy` says what to do when
 * the tabs separate `n` references (`palette score`'s `-nr n` by default).
 */
export function tabWarning(
  refs: readonly ReadFile[],
  numRefs: number,
  remedy: (n: number) => string = (n) => `give -nr ${n}`,
): string | undefined {
  if (refs.length !== 1 || numRefs !== 1) return undefined;
  const [ref] = refs;
  let count = 0;
  let first = 0;
  let most = 0;
  ref.lines.forEach((line, i) => {
    const tabs = countTabs(line);
    if (tabs === 0) return;
    if (count++ === 0) first = i + 1;
    most = Math.max(most, tabs);
  });
  if (count === 0) return undefined;
  return (
    `${ref.file}:${first}: ${count} reference line${count === 1 ? ' holds' : 's hold'} tabs, and each line is scored ` +
    `as one reference; if the tabs separate several references, ${remedy(most + 1)}`
  );
}

function countTabs(line: string): number {
  let n = 0;
  for (let at = line.indexOf('\t'); at >= 0; at = line.indexOf('\t', at + 1)) n++;
  return n;
}

/**
 * Whether `metric` is ROUGE-Lsum, told by the options ROUGE exposes (its type and split rule) rather than by its class: importing
 * the class here would load ROUGE's code into every `palette score` run, whatever its `-m`.
 */
function isRougeLsum(metric: Metric): metric is Rouge {
  const options = (metric as Partial<Pick<Rouge, 'options'>>).options;
  return options?.type?.kind === 'lsum' && options.split !== undefined;
}

/**
 * The warning for each `rouge-lsum` metric of a run where every hypothesis and every reference has at most one
 * sentence under the metric's split rule.
 */
export function oneSentenceLsumWarnings(
  metrics: readonly CliMetric[],
  systems: readonly ReadFile[],
  refStreams: readonly (readonly string[])[],
): string[] {
  const out: string[] = [];
  for (const { metric } of metrics) {
    if (!isRougeLsum(metric)) continue;
    const rule = metric.options.split;
    const oneSentence = (text: string): boolean => splitSentences(text, rule).length <= 1;
    const texts = [...systems.map((s) => s.lines), ...refStreams];
    if (!texts.every((lines) => lines.every(oneSentence))) continue;
    const name = sentenceSplitName(rule);
    out.push(
      `${metric.name}: no summary has more than one sentence under --split-sentences ${name}, so ${metric.name} ` +
        'equals ROUGE-L here; say where sentences end with --split-sentences (punct, t-tags or marker:STR)',
    );
  }
  return out;
}
