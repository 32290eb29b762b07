/**
 * NIST against the full goldens in ../shared (skipped when ../shared is absent):
 * - golden/moses/mteval.*.json: every NIST record (mteval-v13a.pl with and without -c, multi-reference, mteval-v14.pl
 *   with and without --international-tokenization): corpus score, individual and cumulative scores per order, and
 *   every segment's score and word count, at mteval's 4 printed decimals (abs 5e-5);
 * - golden/nltk/bleu-nist.*.json: every NIST field (corpus_nist for each n, sentence_nist per line), relative 1e-9,
 *   NLTK's ZeroDivisionError as NaN.
 * Plain-text records are read as golden/README.md says; the nltk-wmt15-eval SGML records are read like mteval reads
 * SGML (whitespace runs of a document collapsed, `<seg>` spans) and XML-unescaped into plain text.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Nist, type NistOptions } from '../src/metrics/nist/nist.js';
import { sumRows } from '../src/metrics/metric.js';
import { SHARED, dataLines, haveShared } from './helpers/shared-data.js';

const HAVE_SHARED = haveShared('golden/moses/mteval.wmt17-en-de.json');

const ENTITIES: [RegExp, string][] = [
  [/&quot;/g, '"'],
  [/&apos;/g, "'"],
  [/&lt;/g, '<'],
  [/&gt;/g, '>'],
  [/&amp;/g, '&'],
];

/** `<seg>` texts of an SGML file in file order, as mteval reads them, unescaped to plain text. */
function sgmlSegments(path: string): string[] {
  const text = readFileSync(new URL(`data/${path}`, SHARED), 'utf8');
  const out: string[] = [];
  for (const doc of text.matchAll(/<doc\s[^>]*>([\s\S]*?)<\/doc\s*>/gi)) {
    const span = doc[1].replace(/\s+/g, ' ');
    for (const seg of span.matchAll(/<seg\s*[^>]*>(.*?)<\/seg\s*>/gi)) {
      out.push(ENTITIES.reduce((s, [re, ch]) => s.replace(re, ch), seg[1]));
    }
  }
  return out;
}

function textOf(path: string): string[] {
  return path.endsWith('.sgm') ? sgmlSegments(path) : dataLines(path);
}

/** The mteval options that change NIST (`-c`, `--international-tokenization`, …), for test names. */
function flags(args: string[]): string {
  return args.filter((a) => a === '-c' || a.startsWith('--')).join(' ');
}

function close(got: number, want: number): boolean {
  return Math.abs(got - want) <= Math.max(1e-9 * Math.abs(want), 1e-12);
}

function asPrinted(got: number, want: number): boolean {
  return Math.abs(got - want) <= 5e-5;
}

interface MtevalRecord {
  hyp: string;
  refs: string[];
  config: { tool: string; args: string[] };
  corpus: { nist?: number; individual?: { nist: number[] }; cumulative?: { nist: number[] } };
  segment_fields?: string[];
  segments?: (string | number)[][];
}

interface NltkRecord {
  hyp: string;
  refs: string[];
  config: { tokenization: string };
  corpus: Record<string, unknown>;
  segment_fields?: string[];
  segments?: unknown[][];
}

function readRecords<T>(file: string): T[] {
  return (JSON.parse(readFileSync(new URL(`golden/${file}`, SHARED), 'utf8')) as { records: T[] }).records;
}

/** Rows for (options, hyp, refs), shared by records that differ only in what they print. */
const rowCache = new Map<string, { metric: Nist; rows: Float64Array }>();
function scored(opts: NistOptions, hyp: string, refs: string[]): { metric: Nist; rows: Float64Array } {
  const key = JSON.stringify([opts, hyp, refs]);
  let hit = rowCache.get(key);
  if (!hit) {
    const metric = new Nist(opts);
    hit = { metric, rows: metric.segmentStats(textOf(hyp), metric.prepareReferences(refs.map(textOf))) };
    rowCache.set(key, hit);
  }
  return hit;
}

describe.skipIf(!HAVE_SHARED)('NIST vs mteval-v13a/v14 goldens (golden/moses/mteval.*.json)', () => {
  for (const file of ['mteval.wmt17-en-de.json', 'mteval.wmt21-en-de.json', 'mteval.nltk-wmt15-eval.json']) {
    // Without ../shared the per-file suites are still declared (and reported skipped), with no records.
    const records = HAVE_SHARED
      ? readRecords<MtevalRecord>(`moses/${file}`).filter((r) => r.corpus.nist !== undefined)
      : [];
    describe(file, () => {
      it('has NIST records', () => expect(records.length).toBeGreaterThan(0));
      it.each(
        records.map((r) => ({
          name: `${r.hyp.split('/').pop()} ×${r.refs.length} ${r.config.tool} ${flags(r.config.args)}`,
          r,
        })),
      )('$name', ({ r }) => {
        const args = r.config.args;
        const base: NistOptions = {
          tokenize: args.includes('--international-tokenization') ? 'intl' : '13a',
          lowercase: !args.includes('-c'),
        };
        const bad: string[] = [];
        // Orders 1..9 as mteval prints them, from a max-order-9 run.
        const { metric: m9, rows: rows9 } = scored({ ...base, maxOrder: 9 }, r.hyp, r.refs);
        const c9 = m9.scoreFromStats(sumRows(rows9, m9.statsWidth));
        (c9.details!.individual as number[]).forEach((v, n) => {
          if (!asPrinted(v, r.corpus.individual!.nist[n])) bad.push(`individual ${n + 1}: ${v}`);
        });
        (c9.details!.cumulative as number[]).forEach((v, n) => {
          if (!asPrinted(v, r.corpus.cumulative!.nist[n])) bad.push(`cumulative ${n + 1}: ${v}`);
        });
        const { metric, rows } = scored(base, r.hyp, r.refs);
        const corpus = metric.scoreFromStats(sumRows(rows, metric.statsWidth));
        if (!asPrinted(corpus.score, r.corpus.nist!)) bad.push(`corpus ${corpus.score} want ${r.corpus.nist}`);
        const fields = r.segment_fields!;
        const [iLine, iWords, iNist] = ['line', 'words', 'nist'].map((f) => fields.indexOf(f));
        for (const seg of r.segments!) {
          const line = seg[iLine] as number;
          const s = metric.sentenceScoreFromStats(
            rows.subarray((line - 1) * metric.statsWidth, line * metric.statsWidth),
          );
          if (!asPrinted(s.score, seg[iNist] as number)) bad.push(`line ${line}: ${s.score} want ${seg[iNist]}`);
          if (s.details!.hypLen !== seg[iWords])
            bad.push(`line ${line}: ${s.details!.hypLen} words want ${seg[iWords]}`);
        }
        expect(bad.slice(0, 5)).toEqual([]);
      });
    });
  }
});

describe.skipIf(!HAVE_SHARED)('NIST nltk flavor vs NLTK 3.8 goldens (golden/nltk/bleu-nist.*.json)', () => {
  const files = [
    'bleu-nist.wmt17-en-de.json',
    'bleu-nist.wmt21-en-de.json',
    'bleu-nist.nltk-wmt15-eval.json',
    'bleu-nist.compare-mt.json',
  ];
  for (const file of files) {
    const records = HAVE_SHARED ? readRecords<NltkRecord>(`nltk/${file}`) : [];
    const cases = records.flatMap((r) =>
      Object.keys(r.corpus)
        .filter((k) => k.startsWith('nist_n'))
        .map((k) => ({
          name: `${r.hyp.split('/').pop()} ×${r.refs.length} ${k}`,
          r,
          n: Number(k.slice('nist_n'.length)),
        })),
    );
    describe(file, () => {
      it('has NIST fields', () => expect(cases.length).toBeGreaterThan(0));
      it.each(cases)('$name', ({ r, n }) => {
        const tok = r.config.tokenization;
        const opts: NistOptions = {
          flavor: 'nltk',
          maxOrder: n,
          tokenize: tok.includes('Tokenizer13a') ? '13a' : 'none',
          lowercase: tok.includes('line.lower()'),
        };
        const { metric, rows } = scored(opts, r.hyp, r.refs);
        const bad: string[] = [];
        const corpus = metric.scoreFromStats(sumRows(rows, metric.statsWidth)).score;
        const want = r.corpus[`nist_n${n}`] as number;
        if (!close(corpus, want)) bad.push(`corpus ${corpus} want ${want}`);
        const k = (r.segment_fields ?? []).indexOf(`nist_n${n}`);
        if (k >= 0) {
          for (const seg of r.segments!) {
            const line = seg[0] as number;
            const s = metric.sentenceScoreFromStats(
              rows.subarray((line - 1) * metric.statsWidth, line * metric.statsWidth),
            ).score;
            const v = seg[k];
            const ok =
              typeof v === 'number' ? close(s, v) : Number.isNaN(s) && JSON.stringify(v).includes('ZeroDivisionError');
            if (!ok) bad.push(`line ${line}: ${s} want ${JSON.stringify(v)}`);
          }
        }
        expect(bad.slice(0, 5)).toEqual([]);
      });
    });
  }
});
