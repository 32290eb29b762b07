/**
 * The metric variants ORANGE compares (seed paper 002 §4) and their `-m` names: `bleus1` … `bleus9` (Lin & Och's
 * smoothed sentence BLEU, src/metrics/bleu/lin-och.ts; up to `bleus20`), `nist`, `rouge-l`, `rouge-w-1.1` … (any
 * weight > 1), `rouge-s0` … and `rouge-s*` (skip-bigrams with at most D words between the two, or any), `rouge-su…`
 * (with unigrams), `wer`, `per`, and beyond the paper `rouge-1` … `rouge-9` and `gtm` / `gtm-E` (run exponent E ≥ 1,
 * seed 000), and `paraeval` (seed 001), `impact` and `npchunk` (seed 003), scored through `palette score`'s metrics
 * with its metric flags (./metric-variants.ts); `bleu` and `rouge-w` are shorthands for `bleus4` and `rouge-w-1.2` (ROUGE's default weight). Groups
 * name ranges: `bleus1-9`, `rouge-w-1.1-2.0` (step 0.1), `rouge-s0-9`, `rouge-su0-9`, `rouge-1-4`.
 */
import { InputError } from '../../errors.js';
import { lowerIsBetterMetric } from '../../metrics/catalog.js';

/** One metric variant. */
export type OrangeVariant =
  | { readonly kind: 'bleus'; readonly name: string; readonly order: number }
  | { readonly kind: 'nist'; readonly name: string }
  | { readonly kind: 'rouge-n'; readonly name: string; readonly n: number }
  | { readonly kind: 'rouge-l'; readonly name: string }
  | { readonly kind: 'rouge-w'; readonly name: string; readonly weight: number }
  | { readonly kind: 'rouge-s'; readonly name: string; readonly maxGap: number; readonly unigrams: boolean }
  | { readonly kind: 'wer'; readonly name: string }
  | { readonly kind: 'per'; readonly name: string }
  | { readonly kind: 'gtm'; readonly name: string; readonly exponent: number }
  /** A registry metric scored through the Metric API (./metric-variants.ts); `id` is its `palette score -m` id. */
  | { readonly kind: 'metric'; readonly name: string; readonly id: 'paraeval' | 'impact' | 'npchunk' | 'cer' | 'gleu' | 'ribes' | 'meteor' };

/** Highest BLEUS order (the paper has BLEUS1–9; seed 000's BLEU12 needs more). */
export const MAX_BLEUS_ORDER = 20;
/** Highest ROUGE-N order (rouge-score's rouge1–rouge9). */
export const MAX_ROUGE_N = 9;
/** NIST's n-gram order (mteval's default). */
export const NIST_ORDER = 5;

/** The `palette score -m` name of the catalog metric a variant is a setting of (BLEUS is BLEU's lin-och flavor). */
export function catalogMetricOf(v: OrangeVariant): string {
  switch (v.kind) {
    case 'bleus':
      return 'bleu';
    case 'rouge-n':
      return `rouge-${v.n}`;
    case 'rouge-l':
    case 'rouge-w':
    case 'rouge-s':
      return v.name.toLowerCase();
    case 'metric':
      return v.id;
    default:
      return v.kind;
  }
}

/** Whether a lower score is better (the error rates), as the variant's metric's descriptor says. */
export function lowerIsBetter(v: OrangeVariant): boolean {
  return lowerIsBetterMetric(catalogMetricOf(v));
}

const bleus = (order: number): OrangeVariant => ({ kind: 'bleus', name: `BLEUS${order}`, order });
/** `weight` in tenths, as ROUGE-1.5.5 prints it: 1.2, 2.0. */
const rougeW = (tenths: number): OrangeVariant => ({
  kind: 'rouge-w',
  name: `ROUGE-W-${(tenths / 10).toFixed(1)}`,
  weight: tenths / 10,
});
const rougeS = (gap: number, unigrams: boolean): OrangeVariant => ({
  kind: 'rouge-s',
  name: `ROUGE-S${unigrams ? 'U' : ''}${gap < 0 ? '*' : gap}`,
  maxGap: gap,
  unigrams,
});

/** Names `-m` accepts, for messages. */
export const ORANGE_METRIC_NAMES =
  'bleus1..bleus20, bleu (= bleus4), nist, rouge-1..rouge-9, rouge-l, rouge-w[-W] (W > 1, default 1.2), rouge-sD, ' +
  'rouge-s*, rouge-suD, rouge-su*, wer, per, cer, gtm[-E] (E >= 1), paraeval, impact, npchunk, gleu, ribes, meteor; groups bleusA-B, rouge-A-B, rouge-w-A-B (step 0.1), ' +
  'rouge-sA-B, rouge-suA-B';

/** Parses a decimal weight with at most one decimal into tenths; -1 when it is not one. */
function tenthsOf(text: string): number {
  const m = /^(\d+)(?:\.(\d))?$/.exec(text);
  if (m === null) return -1;
  return Number(m[1]) * 10 + (m[2] === undefined ? 0 : Number(m[2]));
}

function unknown(name: string, why?: string): InputError {
  return new InputError(
    'E_UNKNOWN_METRIC',
    `unknown ORANGE metric "${name}"${why === undefined ? '' : ` (${why})`}: expected ${ORANGE_METRIC_NAMES}`,
  );
}

/** The variants one `-m` name stands for. @throws InputError `E_UNKNOWN_METRIC`. */
export function parseOrangeMetric(raw: string): OrangeVariant[] {
  const name = raw.trim().toLowerCase();
  let m: RegExpExecArray | null;
  if (name === 'bleu') return [bleus(4)];
  if (name === 'nist') return [{ kind: 'nist', name: 'NIST' }];
  if (name === 'rouge-l') return [{ kind: 'rouge-l', name: 'ROUGE-L' }];
  if (name === 'wer') return [{ kind: 'wer', name: 'WER' }];
  if (name === 'per') return [{ kind: 'per', name: 'PER' }];
  if (name === 'rouge-w') return [rougeW(12)];
  if (name === 'paraeval') return [{ kind: 'metric', name: 'ParaEval', id: 'paraeval' }];
  if (name === 'impact') return [{ kind: 'metric', name: 'IMPACT', id: 'impact' }];
  if (name === 'npchunk') return [{ kind: 'metric', name: 'NP-chunk', id: 'npchunk' }];
  if (name === 'cer') return [{ kind: 'metric', name: 'CER', id: 'cer' }];
  if (name === 'gleu') return [{ kind: 'metric', name: 'GLEU', id: 'gleu' }];
  if (name === 'ribes') return [{ kind: 'metric', name: 'RIBES', id: 'ribes' }];
  if (name === 'meteor') return [{ kind: 'metric', name: 'METEOR', id: 'meteor' }];
  if ((m = /^gtm(?:-(\d+(?:\.\d+)?))?$/.exec(name)) !== null) {
    const exponent = m[1] === undefined ? 1 : Number(m[1]);
    if (!(exponent >= 1)) throw unknown(raw, 'the GTM run exponent is a number >= 1');
    return [{ kind: 'gtm', name: exponent === 1 ? 'GTM' : `GTM-${exponent}`, exponent }];
  }
  if ((m = /^rouge-(\d+)(?:-(\d+))?$/.exec(name)) !== null) {
    const from = Number(m[1]);
    const to = m[2] === undefined ? from : Number(m[2]);
    if (from < 1 || to > MAX_ROUGE_N || to < from) throw unknown(raw, `ROUGE-N orders run from 1 to ${MAX_ROUGE_N}`);
    const out: OrangeVariant[] = [];
    for (let n = from; n <= to; n++) out.push({ kind: 'rouge-n', name: `ROUGE-${n}`, n });
    return out;
  }
  if ((m = /^bleus(\d+)(?:-(\d+))?$/.exec(name)) !== null) {
    const from = Number(m[1]);
    const to = m[2] === undefined ? from : Number(m[2]);
    if (from < 1 || to > MAX_BLEUS_ORDER || to < from) throw unknown(raw, `orders run from 1 to ${MAX_BLEUS_ORDER}`);
    const out: OrangeVariant[] = [];
    for (let n = from; n <= to; n++) out.push(bleus(n));
    return out;
  }
  if ((m = /^rouge-w-([\d.]+)(?:-([\d.]+))?$/.exec(name)) !== null) {
    const from = tenthsOf(m[1]);
    const to = m[2] === undefined ? from : tenthsOf(m[2]);
    if (from <= 10 || to < from) throw unknown(raw, 'ROUGE-W weights are numbers > 1 with at most one decimal');
    const out: OrangeVariant[] = [];
    for (let t = from; t <= to; t++) out.push(rougeW(t));
    return out;
  }
  if ((m = /^rouge-s(u?)(\*|\d+)(?:-(\d+))?$/.exec(name)) !== null) {
    const unigrams = m[1] === 'u';
    if (m[2] === '*') {
      if (m[3] !== undefined) throw unknown(raw);
      return [rougeS(-1, unigrams)];
    }
    const from = Number(m[2]);
    const to = m[3] === undefined ? from : Number(m[3]);
    if (to < from || to > 1000) throw unknown(raw, 'skip distances are 0 … 1000, or * for any');
    const out: OrangeVariant[] = [];
    for (let d = from; d <= to; d++) out.push(rougeS(d, unigrams));
    return out;
  }
  throw unknown(raw);
}

/** The variants of several `-m` names in order, each once (the first mention wins). @throws as {@link parseOrangeMetric}. */
export function parseOrangeMetrics(names: readonly string[]): OrangeVariant[] {
  const seen = new Set<string>();
  const out: OrangeVariant[] = [];
  for (const n of names) {
    for (const v of parseOrangeMetric(n)) {
      if (seen.has(v.name)) continue;
      seen.add(v.name);
      out.push(v);
    }
  }
  if (out.length === 0) throw new InputError('E_UNKNOWN_METRIC', `no ORANGE metric given: expected ${ORANGE_METRIC_NAMES}`);
  return out;
}
