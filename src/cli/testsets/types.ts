/** The shape of sacreBLEU's test-set table as Palette holds it (table.ts). */

/**
 * How a test set's raw files become one text file per field (sacreBLEU's dataset classes):
 * - `wmt-xml`: WMT 2021+ XML, one file per pair holding source, references (by translator), document ids, original
 *   languages, domains and system outputs;
 * - `fake-sgml`: WMT's pre-2021 SGML (and IWSLT's XML, read the same way): `<seg …>text</seg>` lines, one file per
 *   side, document attributes projected onto segments (`docid`, `genre`, `origlang`);
 * - `wmt-addition`: as `fake-sgml`, but a file not ending in `.sgm` is plain text;
 * - `plain-text`: one file per side, line-aligned;
 * - `tsv`: columns of one tab-separated file (`"N:file"` names column N, else src is column 0 and ref column 1).
 */
export type TestSetFormat = 'wmt-xml' | 'fake-sgml' | 'wmt-addition' | 'plain-text' | 'tsv';

/** A language pair's files: the source then the references (relative to the set's raw folder), or WMT XML's form. */
export type LangpairFiles = readonly string[] | { readonly path: string; readonly refs?: readonly string[] };

export interface TestSetEntry {
  readonly format: TestSetFormat;
  /** Download URLs. */
  readonly data: readonly string[];
  /** md5 sums of the downloads, in the order of `data`; null: not checked. */
  readonly md5: readonly string[] | null;
  readonly description: string | null;
  readonly citation?: string;
  readonly langpairs: Readonly<Record<string, LangpairFiles>>;
  /** WMT XML: the translators whose references are scored (default for every pair). */
  readonly refs?: readonly string[];
}

export interface TestSetTable {
  readonly datasets: Readonly<Record<string, TestSetEntry>>;
  /** `--subset` annotations of SGML sets: document id → `COUNTRY-domain[-…]`. */
  readonly subsets: Readonly<Record<string, Readonly<Record<string, string>>>>;
}
