/**
 * sacrebleu-format signature strings (`nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:0.1.0`).
 *
 * A signature lists every setting that changes a number. The layout is sacrebleu 2.6.0's `Signature.format`:
 * the fields shared by all metrics first (`nrefs`, then the resampling and test-set fields when set), then the
 * metric's own fields in the order the metric gives them, and `version` always last. Fields whose value is
 * `null`/`undefined` are left out; booleans print as `yes`/`no`. Fields are passed explicitly (never found by
 * reflecting over an options object) so that what a signature says is reviewable in one place per metric.
 */
import { VERSION } from '../version.js';

/** A value a signature field can hold; `null`/`undefined` drop the field. */
export type SignatureValue = string | number | boolean | null | undefined;

/** One metric-specific field: its long key, its short key (for the short form) and its value. */
export interface SignatureField {
  /** Key in the long form, e.g. `case`. */
  readonly key: string;
  /** Key in the short form, e.g. `c`. */
  readonly abbr: string;
  /** The value; `null`/`undefined` leave the field out. */
  readonly value: SignatureValue;
}

/** The fields every metric's signature shares (sacrebleu's base `Signature`). */
export interface CommonSignatureInfo {
  /**
   * Number of references per segment; a negative number or `'var'` means it varies between segments
   * (printed `var`, as sacrebleu does).
   */
  readonly nRefs: number | 'var';
  /** Bootstrap resampling trials (`bs`), when the score comes with a confidence interval. */
  readonly bootstrap?: number;
  /** Approximate randomization trials (`ar`). */
  readonly approximateRandomization?: number;
  /** Seed of the resampling RNG (`seed`, short `rs`). */
  readonly seed?: number | string;
  /** Test set name (`test`). */
  readonly testSet?: string;
  /** Language pair (`lang`). */
  readonly langPair?: string;
  /** Original language filter (`origlang`). */
  readonly origLang?: string;
  /** Subset filter (`subset`, short `S`). */
  readonly subset?: string;
  /**
   * Version printed last.
   * @default VERSION of Palette (src/version.ts)
   */
  readonly version?: string;
}

/** Renders one value the way sacrebleu does (`True`/`False` → `yes`/`no`). */
function renderValue(value: string | number | boolean): string {
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return String(value);
}

/** The `nrefs` value sacrebleu prints for a reference count (`var` when it varies). */
export function formatNRefs(nRefs: number | 'var'): string {
  return nRefs === 'var' || nRefs < 0 ? 'var' : String(nRefs);
}

/**
 * Formats a signature: shared fields, then `fields` in order, then `version`.
 * @param common the shared fields (`nRefs` is required).
 * @param fields the metric's own fields, in the order they should appear.
 * @param short `true` for the short form (`#:1|c:mixed|e:no|tok:13a|s:exp|v:0.1.0`).
 */
export function formatSignature(common: CommonSignatureInfo, fields: readonly SignatureField[], short = false): string {
  const all: SignatureField[] = [
    { key: 'nrefs', abbr: '#', value: formatNRefs(common.nRefs) },
    { key: 'bs', abbr: 'bs', value: common.bootstrap },
    { key: 'ar', abbr: 'ar', value: common.approximateRandomization },
    { key: 'seed', abbr: 'rs', value: common.seed },
    { key: 'test', abbr: 't', value: common.testSet },
    { key: 'lang', abbr: 'l', value: common.langPair },
    { key: 'origlang', abbr: 'o', value: common.origLang },
    { key: 'subset', abbr: 'S', value: common.subset },
    ...fields,
    { key: 'version', abbr: 'v', value: common.version ?? VERSION },
  ];
  const parts: string[] = [];
  for (const f of all) {
    if (f.value === null || f.value === undefined) continue;
    parts.push(`${short ? f.abbr : f.key}:${renderValue(f.value)}`);
  }
  return parts.join('|');
}

/**
 * Splits a long-form signature into its key/value pairs (what sacrebleu's JSON output lists after the score).
 * Values never contain `|`; a value may contain `:` (only the first `:` separates key and value).
 */
export function parseSignature(signature: string): [string, string][] {
  if (signature === '') return [];
  return signature.split('|').map((part) => {
    const at = part.indexOf(':');
    return at < 0 ? [part, ''] : [part.slice(0, at), part.slice(at + 1)];
  });
}
