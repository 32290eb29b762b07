/**
 * ROUGE text layer against the full shared goldens (reads ../shared relative to the repository root; skipped when
 * it is absent):
 * - the fixtures in test/fixtures/rouge-text/ still equal shared/golden/edge/;
 * - src/resources/ (exception table, stopwords) equals a fresh run of scripts/gen-rouge-resources.mjs;
 * - ROUGE-1.5.5 on SummEval (golden/rouge155/summeval.*.json: 16 systems x 100 documents, reference 0 or 11
 *   references, plain, -m, -m -s -l 100, -m -b 665) and on its own SL2003 sample (golden/rouge155/sl2003.json,
 *   incl. -l 6 and -m -b 40): ROUGE-1 model/peer/hit counts and ROUGE-L model/peer counts from the -t 2 columns,
 *   which fix the tokens, the stemmer, the stopwords and both of ROUGE's length-limit readers (hits recomputed
 *   as clipped unigram counts; exact integers);
 * - rouge-score 0.1.2 on SummEval (golden/rouge-score/summeval.ref0.json, without and with the stemmer): rouge1
 *   P/R/F recomputed from the tokens (relative 1e-9, golden/README.md).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { truncateRouge155, type Rouge155Limit, type Rouge155ReadPurpose } from '../src/text/rouge/rouge155-truncate.js';
import { RougeInterner, type RougeTokenizerOptions } from '../src/text/rouge/rouge-tokenizer.js';
import { splitSentences } from '../src/text/rouge/sentence-split.js';
import { SHARED, haveShared } from './helpers/shared-data.js';

const HAVE_SHARED = haveShared('golden/');

function readLines(rel: string, encoding: BufferEncoding = 'utf8'): string[] {
  const lines = readFileSync(new URL(`data/${rel}`, SHARED), encoding).split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

function readGolden<T>(rel: string): T {
  return JSON.parse(readFileSync(new URL(`golden/${rel}`, SHARED), 'utf8')) as T;
}

interface GoldenRecord {
  hyp: string;
  refs: string[];
  config: { options: string };
  segment_fields: string[];
  segments: (number | number[])[][];
}

/** Clipped unigram hits of two id lists (ROUGE-1.5.5's ngramScore for n = 1). */
function clippedHits(model: Int32Array | number[], peer: Int32Array | number[]): number {
  const counts = new Map<number, number>();
  for (const t of peer) counts.set(t, (counts.get(t) ?? 0) + 1);
  let hits = 0;
  for (const t of model) {
    const c = counts.get(t) ?? 0;
    if (c > 0) {
      hits++;
      counts.set(t, c - 1);
    }
  }
  return hits;
}

/** The options a ROUGE-1.5.5 command line sets for the text layer. */
function parseRougeOptions(options: string): { tokenizer: RougeTokenizerOptions; limit: Rouge155Limit } {
  const words = /(?:^| )-l (\d+)/.exec(options);
  const bytes = /(?:^| )-b (\d+)/.exec(options);
  return {
    tokenizer: { tokenizer: 'rouge155', stem: / -m( |$)/.test(options), removeStopwords: / -s( |$)/.test(options) },
    limit: { words: words ? Number(words[1]) : 0, bytes: bytes ? Number(bytes[1]) : 0 },
  };
}

/**
 * Checks the ROUGE-1 and ROUGE-L count columns of one ROUGE-1.5.5 record, given each unit's peer and model
 * sentences. Returns the mismatching units (empty = all agree) and how many units were checked.
 */
function checkRouge155Counts(
  record: GoldenRecord,
  sentencesOf: (file: string, unit: number) => string[],
): { bad: string[]; units: number } {
  const { tokenizer, limit } = parseRougeOptions(record.config.options);
  const interner = new RougeInterner(tokenizer);
  const ids = (file: string, unit: number, purpose: Rouge155ReadPurpose): number[] =>
    truncateRouge155(sentencesOf(file, unit), limit, purpose).flatMap((s) => interner.ids(s));
  const r1 = record.segment_fields.indexOf('ROUGE-1 counts(-t 2)');
  const rl = record.segment_fields.indexOf('ROUGE-L counts(-t 2)');
  const bad: string[] = [];
  for (const seg of record.segments) {
    const unit = seg[0] as number;
    const peer = ids(record.hyp, unit, 'ngram');
    let model = 0;
    let hits = 0;
    let lcsModel = 0;
    for (const ref of record.refs) {
      const m = ids(ref, unit, 'ngram');
      model += m.length;
      hits += clippedHits(m, peer);
      // The two readers differ only under -b (see src/text/rouge/rouge155-truncate.ts).
      lcsModel += limit.bytes ? ids(ref, unit, 'lcs').length : m.length;
    }
    const peerTotal = peer.length * record.refs.length; // -f A: the peer is counted once per reference
    const expected1 = seg[r1] as number[];
    const got1 = [model, peerTotal, hits];
    if (expected1.join() !== got1.join()) bad.push(`${record.config.options} unit ${unit}: ROUGE-1 ${got1} != ${expected1}`);
    if (rl >= 0) {
      const expectedL = (seg[rl] as number[]).slice(0, 2);
      if (expectedL.join() !== [lcsModel, peerTotal].join()) bad.push(`${record.config.options} unit ${unit}: ROUGE-L ${[lcsModel, peerTotal]} != ${expectedL}`);
    }
  }
  return { bad, units: record.segments.length };
}

describe.skipIf(!HAVE_SHARED)('rouge-text fixtures and resources equal ../shared', () => {
  it.each(['inputs', 'porter_stems', 'rouge_score_tok', 'rouge155_r1_lines', 'pairs', 'pairs_rouge155'])('%s.jsonl', (name) => {
    const fixture = gunzipSync(readFileSync(new URL(`./fixtures/rouge-text/${name}.jsonl.gz`, import.meta.url)));
    expect(fixture.equals(readFileSync(new URL(`golden/edge/${name}.jsonl`, SHARED)))).toBe(true);
  });

  it('src/resources/ equals a fresh run of scripts/gen-rouge-resources.mjs', () => {
    const out = mkdtempSync(join(tmpdir(), 'rouge-resources-'));
    try {
      const script = fileURLToPath(new URL('../scripts/gen-rouge-resources.mjs', import.meta.url));
      execFileSync(process.execPath, [script, '--shared', fileURLToPath(SHARED), '--out', out], { stdio: 'pipe' });
      for (const file of ['wordnet-2.0-exceptions.ts', 'smart-stopwords.ts']) {
        const shipped = readFileSync(new URL(`../src/resources/${file}`, import.meta.url), 'utf8');
        expect(readFileSync(join(out, file), 'utf8'), file).toBe(shipped);
      }
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});

describe.skipIf(!HAVE_SHARED)('ROUGE-1.5.5 counts on SummEval (tokpunct sentences)', () => {
  const cache = new Map<string, string[]>();
  const sentencesOf = (file: string, unit: number): string[] => {
    let lines = cache.get(file);
    if (lines === undefined) cache.set(file, (lines = readLines(file)));
    return splitSentences(lines[unit - 1], 'punct');
  };

  it.each(['summeval.ref0.stem.json', 'summeval.multiref11.json', 'summeval.variants.json'])('%s', (file) => {
    const records = readGolden<{ records: GoldenRecord[] }>(`rouge155/${file}`).records.filter(
      (r) => r.segment_fields.includes('ROUGE-1 counts(-t 2)') && !/-f B/.test(r.config.options),
    );
    expect(records.length).toBeGreaterThan(0);
    let units = 0;
    const bad: string[] = [];
    for (const record of records) {
      const result = checkRouge155Counts(record, sentencesOf);
      units += result.units;
      bad.push(...result.bad);
    }
    expect(bad).toEqual([]);
    expect(units).toBe(records.length * 100);
  });

  it('includes units where the -b reader quirk of ROUGE-L matters', () => {
    // With -b 665 some units keep more model sentences for ROUGE-L than for ROUGE-1 (readText_LCS never adds to
    // its byte total); the variants file must exercise that or the check above proves nothing about it.
    const record = readGolden<{ records: GoldenRecord[] }>('rouge155/summeval.variants.json').records.find((r) =>
      / -b 665/.test(r.config.options),
    )!;
    const interner = new RougeInterner({ tokenizer: 'rouge155', stem: true });
    let differing = 0;
    for (const seg of record.segments) {
      for (const ref of record.refs) {
        const sentences = sentencesOf(ref, seg[0] as number);
        const count = (purpose: Rouge155ReadPurpose) =>
          truncateRouge155(sentences, { bytes: 665 }, purpose).reduce((n, s) => n + interner.ids(s).length, 0);
        if (count('lcs') !== count('ngram')) differing++;
      }
    }
    expect(differing).toBeGreaterThan(0);
  });
});

describe.skipIf(!HAVE_SHARED)('ROUGE-1.5.5 counts on its SL2003 sample (SEE HTML)', () => {
  // ROUGE's SEE reader: the text of each `<a … id=N>` element up to the next `<`, line by line. It keeps the
  // line's newline when `</a>` is on the next line, which counts as a byte for -b (peers here do that).
  const SEE = [
    /^<a size="[0-9]+" name="[0-9]+">\[([0-9]+)\]<\/a>\s+<a href="#[0-9]+" id=[0-9]+>([^<]+)/,
    /^<a name="[0-9]+">\[([0-9]+)\]<\/a>\s+<a href="#[0-9]+" id=[0-9]+>([^<]+)/,
  ];
  const sentencesOf = (file: string, unit: number): string[] => {
    const text = readFileSync(new URL(`data/${file.replace('{01..25}', String(unit).padStart(2, '0'))}`, SHARED), 'latin1');
    const out: string[] = [];
    for (const line of text.match(/[^\n]*\n|[^\n]+$/g) ?? []) {
      for (const re of SEE) {
        const m = re.exec(line);
        if (m !== null) {
          out.push(m[2]);
          break;
        }
      }
    }
    return out;
  };

  it('every option set with -t 2 counts (-f A), including -l 6 and -m -b 40', () => {
    const records = readGolden<{ records: GoldenRecord[] }>('rouge155/sl2003.json').records.filter(
      (r) => r.segment_fields.includes('ROUGE-1 counts(-t 2)') && !/-f B/.test(r.config.options),
    );
    expect(new Set(records.map((r) => r.config.options)).size).toBe(6);
    const bad: string[] = [];
    for (const record of records) bad.push(...checkRouge155Counts(record, sentencesOf).bad);
    expect(bad).toEqual([]);
  });
});

describe.skipIf(!HAVE_SHARED)('rouge-score rouge1 on SummEval (reference 0)', () => {
  /** rouge_score's _score_ngrams for unigrams, in the same floating-point operations. */
  function rouge1(target: number[], prediction: number[]): [number, number, number] {
    const hits = clippedHits(target, prediction);
    const precision = hits / Math.max(prediction.length, 1);
    const recall = hits / Math.max(target.length, 1);
    const f = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
    return [precision, recall, f];
  }
  const close = (a: number, b: number): boolean => Math.abs(a - b) <= Math.max(1e-12, 1e-9 * Math.abs(b));

  it('[P, R, F] of every pair, without and with the stemmer', () => {
    const { records } = readGolden<{ records: (GoldenRecord & { config: { use_stemmer: boolean } })[] }>('rouge-score/summeval.ref0.json');
    expect(records.length).toBe(32);
    const bad: string[] = [];
    for (const record of records) {
      const interner = new RougeInterner({ tokenizer: 'rouge-score', stem: record.config.use_stemmer });
      const hyp = readLines(record.hyp);
      const ref = readLines(record.refs[0]);
      const col = record.segment_fields.indexOf('rouge1');
      for (const seg of record.segments) {
        const line = (seg[0] as number) - 1;
        const got = rouge1(interner.ids(ref[line]), interner.ids(hyp[line]));
        const expected = seg[col] as number[];
        if (!got.every((v, k) => close(v, expected[k]))) bad.push(`${record.hyp} stem=${record.config.use_stemmer} line ${line + 1}: ${got} != ${expected}`);
      }
    }
    expect(bad).toEqual([]);
  });
});
