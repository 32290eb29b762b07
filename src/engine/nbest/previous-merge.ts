/**
 * Merging new candidates with a previous run's (Moses `extractor --prev-scfile`/`--prev-ffile`): one sentence's
 * candidates are the previous run's first, then the new ones in list order; duplicates (equal features and equal
 * statistics) are removed across both; the sentences come in the previous run's order, then the sentences the
 * previous run did not have, in list order.
 *
 * {@link mergedBlock} is that rule for one sentence, shared by the in-thread merge (./run.ts `NbestRun.merge`, which
 * holds every sentence to the end) and {@link StreamingMerge}, which writes each sentence as soon as its turn in
 * that order has come: a queue run's submitter feeds it the new candidates shard by shard, in list order.
 */
import type { ByteOut } from './byte-out.js';
import { featuresFileLine, nbestFeaturesLine, writeFeaturesBlock, type FeaturesTxtHeader } from './features-txt.js';
import { keptCandidates } from './nbest-task.js';
import type { PreviousRun } from './previous-run.js';
import type { BlockEncoder } from './stats-format.js';

/**
 * One sentence's candidates while merging: statistics flat (`width` numbers each) and, when duplicates are removed,
 * their features (the previous run's feature keys first, then raw features fields: a key parses like its field).
 */
export interface MergeGroup {
  stats: number[];
  count: number;
  features: string[];
  /** FEATURES_TXT lines of the candidates, when they are written. */
  lines: string[];
}

/** What merging a sentence needs. */
export interface MergeSettings {
  readonly previous: PreviousRun;
  /** Numbers per candidate row. */
  readonly width: number;
  /** Whether duplicates are removed (not `--allow-duplicates`). */
  readonly keepFeatures: boolean;
  /** The FEATURES_TXT header of sentences the previous run did not have; undefined: no FEATURES_TXT output. */
  readonly featuresTxt: FeaturesTxtHeader | undefined;
  readonly encode: BlockEncoder;
  /** Scratch output of the encoder (taken after each block). */
  readonly out: ByteOut;
}

/** A sentence's encoded blocks: statistics, and FEATURES_TXT when written. */
export interface MergedBlock {
  readonly stats: Uint8Array;
  readonly features: Uint8Array | undefined;
}

/** A group holding the previous run's candidates of `sentence` (none when it had none). */
export function previousGroup(settings: MergeSettings, sentence: number): MergeGroup {
  const { previous } = settings;
  const group: MergeGroup = { stats: [], count: 0, features: [], lines: [] };
  for (const row of previous.stats.get(sentence) ?? []) {
    for (const v of row) group.stats.push(v);
    group.count++;
  }
  if (settings.keepFeatures) for (const key of previous.featureKeys?.get(sentence) ?? []) group.features.push(key);
  if (settings.featuresTxt !== undefined) {
    for (const line of previous.featureLines?.get(sentence) ?? []) group.lines.push(featuresFileLine(line));
  }
  return group;
}

/** Adds new candidates to a group: `count` rows of `stats` from row `from`, their raw features fields. */
export function addCandidates(
  settings: MergeSettings,
  group: MergeGroup,
  stats: ArrayLike<number>,
  from: number,
  count: number,
  features: readonly string[] | undefined,
): void {
  const { width } = settings;
  for (let h = from; h < from + count; h++) {
    for (let c = 0; c < width; c++) group.stats.push(stats[h * width + c]);
    group.count++;
    if (settings.keepFeatures) group.features.push(features![h]);
    if (settings.featuresTxt !== undefined) group.lines.push(nbestFeaturesLine(features![h]));
  }
}

/** The blocks of one sentence's merged candidates (duplicates removed unless kept). */
export function mergedBlock(settings: MergeSettings, sentence: number, group: MergeGroup): MergedBlock {
  const { width, out } = settings;
  const stats = Float64Array.from(group.stats);
  const rows = settings.keepFeatures
    ? keptCandidates(stats, width, group.features, 0, group.count)
    : Int32Array.from({ length: group.count }, (_, i) => i);
  settings.encode(sentence, stats, rows, out);
  const statsBytes = out.take();
  if (settings.featuresTxt === undefined) return { stats: statsBytes, features: undefined };
  // A sentence of the previous run keeps its block's header, as Moses merges new candidates into that block.
  const header = settings.previous.featureHeaders?.get(sentence) ?? settings.featuresTxt;
  writeFeaturesBlock(out, sentence, header, rows, { line: (i) => group.lines[i] });
  return { stats: statsBytes, features: out.take() };
}

/**
 * The merge written as it goes, for new candidates that arrive in list order (sentence ids non-decreasing, as the
 * list's readers check before the candidates get here). A sentence is complete once a later id arrives; its block
 * is written at once when its turn has come (the previous run's sentences in their order, a previous sentence the
 * list lacks as soon as the list has gone past its id, then the new sentences), and held, encoded, until then.
 * When the previous run lists its sentences in the list's order (a tuning loop's previous iterations) nothing
 * waits but new sentences the previous run lacked; the in-thread merge holds every sentence's rows to the end.
 */
export class StreamingMerge {
  /** Next sentence of the previous run's order to write. */
  private next = 0;
  private open: { sentence: number; group: MergeGroup } | undefined;
  /** Complete sentences of the previous run waiting for their turn. */
  private readonly ready = new Map<number, MergedBlock>();
  /** Complete new sentences (not in the previous run) waiting for the previous run's to be written, in list order. */
  private readonly waiting: MergedBlock[] = [];

  constructor(
    private readonly settings: MergeSettings,
    private readonly out: { readonly output: (bytes: Uint8Array) => void; readonly features?: (bytes: Uint8Array) => void },
  ) {}

  /** New candidates of `sentence`: rows `from .. from + count` of `stats` and their raw features fields. */
  add(sentence: number, stats: ArrayLike<number>, from: number, count: number, features: readonly string[] | undefined): void {
    if (this.open !== undefined && sentence !== this.open.sentence) {
      if (sentence < this.open.sentence) throw new RangeError(`sentence ${sentence} after sentence ${this.open.sentence}: candidates must come in list order`);
      this.close();
    }
    if (this.open === undefined) {
      this.open = { sentence, group: previousGroup(this.settings, sentence) };
      // Every id below the open one is complete.
      this.drain(sentence);
    }
    addCandidates(this.settings, this.open.group, stats, from, count, features);
  }

  /** Writes every sentence left (the list is done). */
  finish(): void {
    this.close();
    this.drain(Infinity);
  }

  private write(block: MergedBlock): void {
    this.out.output(block.stats);
    if (block.features !== undefined) this.out.features?.(block.features);
  }

  private close(): void {
    const open = this.open;
    if (open === undefined) return;
    this.open = undefined;
    const block = mergedBlock(this.settings, open.sentence, open.group);
    if (this.settings.previous.stats.has(open.sentence)) this.ready.set(open.sentence, block);
    else if (this.next >= this.settings.previous.order.length) this.write(block);
    else this.waiting.push(block);
  }

  /** Writes the previous run's sentences whose turn has come, while every sentence below `below` is complete. */
  private drain(below: number): void {
    const { order } = this.settings.previous;
    while (this.next < order.length) {
      const sentence = order[this.next];
      const block = this.ready.get(sentence);
      if (block !== undefined) {
        this.ready.delete(sentence);
      } else if (sentence < below) {
        // Not in the list (it went past this id): the previous run's candidates alone.
        this.write(mergedBlock(this.settings, sentence, previousGroup(this.settings, sentence)));
        this.next++;
        continue;
      } else {
        return;
      }
      this.write(block);
      this.next++;
    }
    for (const block of this.waiting) this.write(block);
    this.waiting.length = 0;
  }
}
