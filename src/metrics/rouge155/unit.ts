/**
 * The per-unit core of ROUGE-1.5.5.pl: one peer summary against its model summaries, every ROUGE type the
 * options ask for, with exactly the Perl's numbers (its `computeNGramScore`, `computeLCSScore`,
 * `computeWLCSScore`, `computeSkipBigramScore` and `computeBEScore`). `palette rouge155` reads the configuration
 * and the summaries, calls this once per (evaluation, peer), and averages and prints.
 *
 * What a unit is, as the Perl computes it:
 * - Each summary is read twice (see src/text/rouge/rouge155-truncate.ts): the `ngram` reading (sentences joined:
 *   ROUGE-N, ROUGE-S/SU and the unigram counts that clip ROUGE-L/W hits, and the peer count of ROUGE-L/W) and the
 *   `lcs` reading (sentence by sentence: ROUGE-L/W hits and model counts). The two differ only under `-b`.
 * - `-f A` sums hits, model counts and peer counts over the models (the peer is counted once per model); `-f B`
 *   keeps the model with the best recall, the first one on ties. The recall `-f B` compares is rounded to 5
 *   decimals for ROUGE-N/S/BE (`%07.5f` in `ngramScore`) and not for ROUGE-L/W.
 * - R and P are `sprintf("%7.5f")`-rounded, and F = P·R / ((1−α)P + αR) is computed from the ROUNDED R and P and
 *   rounded again. This happens here, per unit, in the Perl's `compute*Score` subs — not only when printing — so
 *   averages over units (`-t 0`) are averages of rounded values.
 * - ROUGE-W: hits are Σ f(run) over the runs of the traced hit mask (see ../rouge/summary-hits.ts), the model count
 *   is f(Σ_sentences f(|sentence|)) — f applied twice — and the peer count f(|peer|); R and P are f⁻¹ of the
 *   ratios.
 *   ROUGE-1.5.5 dies ("Illegal division by zero") on a model without tokens; here that model scores 0 (hit 0,
 *   model count 0, peer count f(|peer|)) and a warning says so.
 */
import { CsrBuilder, type Csr } from '../../text/csr.js';
import { badOption } from '../../errors.js';
import { Vocabulary } from '../../text/intern.js';
import {
  RougeInterner,
  truncateRouge155,
  type Rouge155Limit,
  type Rouge155ReadPurpose,
} from '../../text/rouge/index.js';
import { perReferenceNgramCounts } from '../../wasm/ngram.js';
import { lcsUnionMasks, skipBigramCounts, wlcsUnionMasks, wlcsWeight, wlcsWeightInverse } from '../../wasm/rouge.js';
import { clippedLcsHits, rouge155WlcsHitWeight } from '../rouge/summary-hits.js';
import { UnigramBudget } from '../rouge/unigram-budget.js';
import { BASIC_ELEMENT_MODES, basicElementHits, basicElementUnits, type BasicElementMode } from './basic-elements.js';
import { writeRougeRows } from '../../wasm/rouge-rows.js';
import { PAIR_WIDTH } from '../rouge/pair-stats.js';
import { perlFixed5, perlNumber } from './perl-format.js';
import { roundedRecall, type ModelStats } from './score.js';

/** ROUGE-1.5.5's options that change per-unit numbers, named after its flags. */
export interface Rouge155UnitOptions {
  /** `-n`: ROUGE-1 … ROUGE-maxN; 0 = no ROUGE-N (the flag absent). */
  readonly maxN: number;
  /** `-w`: ROUGE-W with f(k) = k^wWeight (> 0); absent = no ROUGE-W. */
  readonly wWeight?: number;
  /** How `-w` was written: ROUGE prints it verbatim in the type name (`ROUGE-W-1.2`). @default String(wWeight) */
  readonly wLabel?: string;
  /**
   * `-2`: ROUGE-S with at most this many words between the two of a pair; negative = any gap (S*); absent = no
   * ROUGE-S.
   */
  readonly skipDistance?: number;
  /** How `-2` was written, for the type name (`ROUGE-S4`). @default String(skipDistance) */
  readonly skipLabel?: string;
  /** `-u`: skip-bigrams plus unigrams (ROUGE-SU) instead of ROUGE-S. */
  readonly su: boolean;
  /** `-U`: ROUGE-S and then ROUGE-SU (ignored with `-u`). @default false */
  readonly suAlso?: boolean;
  /** `-x`: no ROUGE-L. @default false */
  readonly noLcs?: boolean;
  /** `-3`: Basic Element score; the summaries' "sentences" are then SIMPLE BE lines. Also turns ROUGE-L off. */
  readonly basicElements?: BasicElementMode;
  /** `-m`: stem tokens longer than 3 characters (WordNet 2.0 exceptions, then ROUGE's Porter). */
  readonly stem: boolean;
  /**
   * `-M` (undocumented in ROUGE's usage): stem the models only, where the Perl does it — ROUGE-S, ROUGE-L, BE, and
   * ROUGE-W's clipping counts but not its hit masks; ROUGE-N never. @default false
   */
  readonly stemModelsOnly?: boolean;
  /** `-s`: remove SMART stopwords. */
  readonly stopwords: boolean;
  /** `-l`: keep the first N words of every summary; 0 or absent = no limit. */
  readonly limitWords?: number;
  /** `-b`: keep the first N bytes of every summary; 0 or absent = no limit. */
  readonly limitBytes?: number;
  /** `-f`: `A` pools the models, `B` keeps the best model. */
  readonly formula: 'A' | 'B';
  /** `-p`: F = P·R / ((1−α)P + αR), 0 ≤ α ≤ 1. */
  readonly alpha: number;
  /**
   * `-t`: 0 averages units' R/P/F, 1 pools counts, 2 prints counts. It changes no per-unit number; it only selects
   * what {@link Rouge155TypeCounts.printed} holds.
   */
  readonly countMode: 0 | 1 | 2;
}

/** One ROUGE type of one unit. */
export interface Rouge155TypeCounts {
  /** As ROUGE prints it: `ROUGE-1` … `ROUGE-L`, `ROUGE-W-1.2`, `ROUGE-S4`, `ROUGE-SU4`, `ROUGE-S*`, `ROUGE-BE-HM`. */
  readonly type: string;
  /** Model units: summed over models with `-f A` (f(Σ f(|sentence|)) per model for ROUGE-W). */
  readonly modelCount: number;
  /** Peer units, counted once per model with `-f A` (f(|peer|) for ROUGE-W). */
  readonly peerCount: number;
  /** Matches (Σ f(run) for ROUGE-W). */
  readonly hitCount: number;
  /** Recall rounded to 5 decimals, as ROUGE goes on computing with it. */
  readonly recall: number;
  /** Precision rounded to 5 decimals. */
  readonly precision: number;
  /** F of the rounded R and P, rounded to 5 decimals. */
  readonly fmeasure: number;
  /**
   * The three values `-d` prints after `R:`, `P:`, `F:`: the 5-decimal strings with `-t 0`; with `-t 1`/`-t 2`
   * the model, peer and hit counts in Perl's number format.
   */
  readonly printed: readonly [string, string, string];
}

/** A summary as both of ROUGE-1.5.5's readers see it. */
interface ReadSummary {
  /** `ngram` reading: every token of the (truncated) summary, one row. */
  readonly tokens: Int32Array;
  /** `lcs` reading: one row per sentence. */
  readonly sentences: Csr;
}

/** Checks a limit value. */
function checkLimit(name: string, value: number | undefined): number {
  if (value === undefined) return 0;
  if (!Number.isInteger(value) || value < 0) throw badOption(name, 'a non-negative integer', value);
  return value;
}

/** Validates the options (ROUGE-1.5.5's own checks, plus types). */
function checkOptions(o: Rouge155UnitOptions): Rouge155Limit {
  if (!Number.isInteger(o.maxN) || o.maxN < 0) throw badOption('maxN (-n)', 'a non-negative integer', o.maxN);
  if (o.wWeight !== undefined && !(Number.isFinite(o.wWeight) && o.wWeight > 0)) {
    throw badOption('wWeight (-w)', 'a number greater than 0', o.wWeight);
  }
  if (o.skipDistance !== undefined && !Number.isInteger(o.skipDistance)) {
    throw badOption('skipDistance (-2)', 'an integer', o.skipDistance);
  }
  if (o.formula !== 'A' && o.formula !== 'B') throw badOption('formula (-f)', '"A" or "B"', o.formula);
  if (!(o.alpha >= 0 && o.alpha <= 1)) throw badOption('alpha (-p)', 'a number from 0 to 1', o.alpha);
  if (o.countMode !== 0 && o.countMode !== 1 && o.countMode !== 2) {
    throw badOption('countMode (-t)', '0, 1 or 2', o.countMode);
  }
  if (o.basicElements !== undefined && !(BASIC_ELEMENT_MODES as readonly string[]).includes(o.basicElements)) {
    throw badOption('basicElements (-3)', `one of ${BASIC_ELEMENT_MODES.join(', ')}`, o.basicElements);
  }
  const words = checkLimit('limitWords (-l)', o.limitWords);
  const bytes = checkLimit('limitBytes (-b)', o.limitBytes);
  if (words > 0 && bytes > 0) throw badOption('limitWords (-l) and limitBytes (-b)', 'not both set', [words, bytes]);
  return { words, bytes };
}

/** Tokenizes summaries for one unit: one vocabulary, an interner per stemming setting. */
class UnitText {
  private readonly vocabulary = new Vocabulary();
  private readonly interners = new Map<boolean, RougeInterner>();

  constructor(
    private readonly stopwords: boolean,
    private readonly limit: Rouge155Limit,
  ) {}

  /** Number of distinct tokens so far (ids are below it). */
  get size(): number {
    return this.vocabulary.size;
  }

  /** Both readings of a summary. */
  read(sentences: readonly string[], stem: boolean): ReadSummary {
    const interner = this.interner(stem);
    if (!(this.limit.bytes! > 0)) {
      // The two readers agree without a byte limit: the token row is the sentence rows back to back.
      const lcs = new CsrBuilder(256, 8);
      interner.internSentences(this.truncate(sentences, 'lcs'), lcs);
      const store = lcs.finish();
      return { tokens: store.tokens, sentences: store };
    }
    const tokens = new CsrBuilder(256, 1);
    for (const s of this.truncate(sentences, 'ngram')) interner.appendIds(s, tokens);
    tokens.endRow();
    const lcs = new CsrBuilder(256, 8);
    interner.internSentences(this.truncate(sentences, 'lcs'), lcs);
    return { tokens: tokens.finish().tokens, sentences: lcs.finish() };
  }

  private truncate(sentences: readonly string[], purpose: Rouge155ReadPurpose): string[] {
    return truncateRouge155(sentences, this.limit, purpose);
  }

  private interner(stem: boolean): RougeInterner {
    let interner = this.interners.get(stem);
    if (interner === undefined) {
      interner = new RougeInterner({ tokenizer: 'rouge155', stem, removeStopwords: this.stopwords }, this.vocabulary);
      this.interners.set(stem, interner);
    }
    return interner;
  }
}

/** Rows of arrays of ids as one CSR store. */
function csrOf(rows: readonly Int32Array[]): Csr {
  const b = new CsrBuilder(
    rows.reduce((a, r) => a + r.length, 0),
    rows.length,
  );
  for (const r of rows) {
    for (let i = 0; i < r.length; i++) b.push(r[i]);
    b.endRow();
  }
  return b.finish();
}

/** Sentence stores of several summaries as one, with the first row of each. */
function concatSentences(summaries: readonly Csr[]): { all: Csr; first: number[] } {
  const b = new CsrBuilder(256, 64);
  const first: number[] = [];
  let rows = 0;
  for (const s of summaries) {
    first.push(rows);
    for (let r = 0; r + 1 < s.offsets.length; r++) {
      for (let i = s.offsets[r]; i < s.offsets[r + 1]; i++) b.push(s.tokens[i]);
      b.endRow();
      rows++;
    }
  }
  first.push(rows);
  return { all: b.finish(), first };
}

/** Combines per-model statistics with `-f` (the row kernel, src/wasm/rouge-rows.ts) into one type's result. */
function finishType(
  type: string,
  perModel: readonly ModelStats[],
  o: Rouge155UnitOptions,
  weight = 0,
): Rouge155TypeCounts {
  const pairs = new Float64Array(perModel.length * PAIR_WIDTH);
  perModel.forEach((m, k) => pairs.set([m.hit, m.peerCount, m.modelCount, m.score], k * PAIR_WIDTH));
  const row = new Float64Array(7);
  const settings = { rule: o.formula === 'B' ? 'rouge155-B' : 'rouge155-A', form: 'alpha', param: o.alpha, weight, jackknife: false } as const;
  writeRougeRows(pairs, Int32Array.of(0, perModel.length), 1, settings, row, 0, 7);
  const [hit, peerCount, modelCount, precision, recall, fmeasure] = row;
  // The row's R, P and F are already the `%7.5f` values as numbers: printing them again gives ROUGE's strings.
  const printed: [string, string, string] =
    o.countMode === 0
      ? [perlFixed5(recall), perlFixed5(precision), perlFixed5(fmeasure)]
      : [perlNumber(modelCount), perlNumber(peerCount), perlNumber(hit)];
  return { type, modelCount, peerCount, hitCount: hit, recall, precision, fmeasure, printed };
}

/**
 * ROUGE-1.5.5's per-unit scores of one peer against its models, in the order ROUGE prints the types: ROUGE-1 …
 * ROUGE-N, ROUGE-L, ROUGE-W, ROUGE-S/SU, ROUGE-BE.
 * @param peerSentences the peer's sentences as ROUGE extracts them from its input (SEE `<a>` texts, SPL lines),
 *   before lowercasing; empty sentences are skipped as ROUGE's readers skip them.
 * @param models each model's sentences, in the configuration's order.
 * @param warnings when given, receives a message for each thing ROUGE-1.5.5 would have died on and Palette
 *   scored as 0 instead (a model without tokens under `-w`).
 * @throws InputError `E_BAD_OPTION` for invalid options; `E_BAD_INPUT` for a malformed BE line under `-3`.
 */
export function rouge155Unit(
  peerSentences: readonly string[],
  models: readonly (readonly string[])[],
  opts: Rouge155UnitOptions,
  warnings?: string[],
): Rouge155TypeCounts[] {
  const limit = checkOptions(opts);
  const out: Rouge155TypeCounts[] = [];
  const text = new UnitText(opts.stopwords, limit);
  const stemPeer = opts.stem;
  const stemModel = opts.stem || opts.stemModelsOnly === true;
  const nModels = models.length;

  // Readings are made on first use: which ones a run needs depends on the types and on -M.
  const cache = new Map<string, ReadSummary>();
  const read = (side: number, stem: boolean): ReadSummary => {
    const key = `${side}|${stem}`;
    let r = cache.get(key);
    if (r === undefined) {
      r = text.read(side < 0 ? peerSentences : models[side], stem);
      cache.set(key, r);
    }
    return r;
  };
  const modelReadings = (stem: boolean): ReadSummary[] => models.map((_, k) => read(k, stem));

  if (opts.maxN > 0) {
    const peer = read(-1, stemPeer);
    const modelTokens = modelReadings(opts.stem).map((m) => m.tokens);
    const maxN = opts.maxN;
    const { rows } = perReferenceNgramCounts(
      {
        hyps: csrOf([peer.tokens]),
        hypSegment: null,
        refs: csrOf(modelTokens),
        segRefOffsets: Int32Array.of(0, nModels),
      },
      maxN,
    );
    for (let n = 1; n <= maxN; n++) {
      const perModel: ModelStats[] = [];
      for (let k = 0; k < nModels; k++) {
        const row = k * 3 * maxN;
        const hit = rows[row + n - 1];
        const modelCount = rows[row + 2 * maxN + n - 1];
        perModel.push({ hit, modelCount, peerCount: rows[row + maxN + n - 1], score: roundedRecall(hit, modelCount) });
      }
      out.push(finishType(`ROUGE-${n}`, perModel, opts));
    }
  }

  if (!(opts.noLcs === true || opts.basicElements !== undefined)) {
    out.push(lcsType(read(-1, stemPeer), modelReadings(stemModel), modelReadings(stemModel), text.size, opts));
  }

  if (opts.wWeight !== undefined) {
    const w = opts.wWeight;
    const label = opts.wLabel ?? String(w);
    out.push(
      wlcsType(
        read(-1, stemPeer),
        modelReadings(opts.stem),
        modelReadings(stemModel),
        text.size,
        w,
        label,
        opts,
        warnings,
      ),
    );
  }

  if (opts.skipDistance !== undefined) {
    const d = opts.skipDistance;
    const suffix = d < 0 ? '*' : (opts.skipLabel ?? String(d));
    const peer = read(-1, stemPeer).tokens;
    const modelTokens = modelReadings(stemModel).map((m) => m.tokens);
    const skipType = (unigrams: boolean): Rouge155TypeCounts => {
      const { rows } = skipBigramCounts(
        { hyps: csrOf([peer]), hypSegment: null, refs: csrOf(modelTokens), segRefOffsets: Int32Array.of(0, nModels) },
        { maxGap: d, unigrams: unigrams ? 'rouge155' : 'none' },
      );
      const perModel: ModelStats[] = [];
      for (let k = 0; k < nModels; k++) {
        const [hit, peerCount, modelCount] = [rows[3 * k], rows[3 * k + 1], rows[3 * k + 2]];
        perModel.push({ hit, modelCount, peerCount, score: roundedRecall(hit, modelCount) });
      }
      return finishType(`ROUGE-${unigrams ? 'SU' : 'S'}${suffix}`, perModel, opts);
    };
    if (opts.su) {
      out.push(skipType(true));
    } else {
      out.push(skipType(false));
      if (opts.suAlso === true) out.push(skipType(true));
    }
  }

  if (opts.basicElements !== undefined) {
    const mode = opts.basicElements;
    const peer = basicElementUnits(peerSentences, mode, stemPeer);
    const perModel = models.map((m): ModelStats => {
      const units = basicElementUnits(m, mode, stemModel);
      const hit = basicElementHits(units, peer);
      return { hit, modelCount: units.total, peerCount: peer.total, score: roundedRecall(hit, units.total) };
    });
    out.push(finishType(`ROUGE-BE-${mode}`, perModel, opts));
  }
  return out;
}

/** Unit sentence ranges `[modelFrom, modelTo, 0, peerSentences]` of every model. */
function unitsOf(first: readonly number[], peerRows: number): Int32Array {
  const units = new Int32Array(4 * (first.length - 1));
  for (let k = 0; k + 1 < first.length; k++) units.set([first[k], first[k + 1], 0, peerRows], 4 * k);
  return units;
}

/** ROUGE-L: union LCS hits per model sentence, clipped by the unigram counts of the `ngram` readings. */
function lcsType(
  peer: ReadSummary,
  modelSentences: readonly ReadSummary[],
  modelCounts: readonly ReadSummary[],
  vocabularySize: number,
  opts: Rouge155UnitOptions,
): Rouge155TypeCounts {
  const { all, first } = concatSentences(modelSentences.map((m) => m.sentences));
  const peerRows = peer.sentences.offsets.length - 1;
  const { masks, maskOffsets } = lcsUnionMasks({ hyps: peer.sentences, refs: all, units: unitsOf(first, peerRows) });
  const modelBudget = new UnigramBudget(vocabularySize);
  const peerBudget = new UnigramBudget(vocabularySize);
  const peerCount = peer.tokens.length;
  const perModel = modelSentences.map((_, k): ModelStats => {
    modelBudget.fill(modelCounts[k].tokens);
    peerBudget.fill(peer.tokens);
    const hit = clippedLcsHits(all, first[k], first[k + 1], masks, maskOffsets[k], modelBudget, peerBudget);
    const base = all.offsets[first[k + 1]] - all.offsets[first[k]];
    return { hit, modelCount: base, peerCount, score: base > 0 ? hit / base : 0 };
  });
  return finishType('ROUGE-L', perModel, opts);
}

/** ROUGE-W: hit runs of the union WLCS masks, f applied twice to the model count, f⁻¹ on the ratios. */
function wlcsType(
  peer: ReadSummary,
  modelSentences: readonly ReadSummary[],
  modelCounts: readonly ReadSummary[],
  vocabularySize: number,
  w: number,
  label: string,
  opts: Rouge155UnitOptions,
  warnings: string[] | undefined,
): Rouge155TypeCounts {
  const f = (x: number): number => wlcsWeight(x, w);
  const inverse = (x: number): number => wlcsWeightInverse(x, w);
  const { all, first } = concatSentences(modelSentences.map((m) => m.sentences));
  const peerRows = peer.sentences.offsets.length - 1;
  const { masks, maskOffsets } = wlcsUnionMasks(
    { hyps: peer.sentences, refs: all, units: unitsOf(first, peerRows) },
    w,
  );
  const modelBudget = new UnigramBudget(vocabularySize);
  const peerBudget = new UnigramBudget(vocabularySize);
  const peerCount = f(peer.tokens.length);
  const type = `ROUGE-W-${label}`;
  const perModel = modelSentences.map((_, k): ModelStats => {
    modelBudget.fill(modelCounts[k].tokens);
    peerBudget.fill(peer.tokens);
    const hit = rouge155WlcsHitWeight(all, first[k], first[k + 1], masks, maskOffsets[k], modelBudget, peerBudget, f);
    // Σ f(|sentence|) in sentence order, as the Perl adds it up.
    let base = 0;
    for (let s = first[k]; s < first[k + 1]; s++) base += f(all.offsets[s + 1] - all.offsets[s]);
    if (base === 0) {
      warnings?.push(
        `${type}: model ${k + 1} has no tokens; scored as 0 (ROUGE-1.5.5 dies here: Illegal division by zero)`,
      );
      return { hit: 0, modelCount: 0, peerCount, score: 0 };
    }
    return { hit, modelCount: f(base), peerCount, score: inverse(hit / base) };
  });
  return finishType(type, perModel, opts, w);
}
