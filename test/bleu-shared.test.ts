/**
 * The BLEU family against every BLEU golden in ../shared (skips cleanly when ../shared is absent):
 * - sacrebleu 2.6.0: golden/sacrebleu bleu-corpus-grid.* (2400 records), bleu-sentence.*, char-bleu18,
 *   corpus-all-systems.* (BLEU records: score, statistics, signature, CLI text), compare-mt, nltk-wmt15-eval;
 *   data/sacrebleu-tests/test_sh_expected_scores.tsv MTEVAL/MTEVAL14 rows whose text is here (2 decimals, ±0.01);
 * - mteval-v13a/v14: golden/moses/mteval.* system BLEU and cumulative BLEU-1…9 (4 decimals, ±5e-5; without -c
 *   mteval lowercases ASCII letters only, v14's intl decodes XML entities first);
 *   multi-bleu.perl: golden/moses/multi-bleu.json (printed 2/1/3 decimals), by the sacrebleu flavor (tokenize
 *   none, no smoothing) and by the moses flavor (corpus and each line);
 * - NLTK 3.8: golden/nltk/* BLEU methods 0–7, corpus and per segment;
 * - golden/edge: pairs_sacrebleu.jsonl (BLEU fields) and pairs_nltk.jsonl, all 1000 pairs;
 * - Moses: data/moses-mert/mert.extractor-txt, every SCORES_TXT line of the five runs.
 * Tolerances: golden/README.md.
 */
import { describe, expect, it } from 'vitest';
import { Bleu, type BleuReferences } from '../src/metrics/bleu/bleu.js';
import { pyFixed } from '../src/util/py-fixed.js';
import { mosesBleuStats, prepareMosesReferences } from '../src/metrics/bleu/moses.js';
import { MosesBleu } from '../src/metrics/bleu/moses-metric.js';
import {
  nltkBleuFromStats,
  nltkSegmentStats,
  NltkBleuError,
  sumNltkStats,
  type NltkSmoothingMethod,
} from '../src/metrics/bleu/nltk.js';
import { sumRows } from '../src/metrics/metric.js';
import { pyLower, pySplit } from '../src/text/pystr.js';
import { tokenize13a } from '../src/text/tokenizers/index.js';
import {
  bleuOptions,
  checkEdgePair,
  checkSentenceRecord,
  closeTo,
  formatMosesScores,
  Mismatches,
  mosesExtractorMerge,
  parseNbest,
  readJsonl,
  readLines,
  sharedData,
  sharedGolden,
  withVersion,
  type MosesCandidate,
  type SacrebleuConfig,
  type SentenceRecord,
} from './fixtures/bleu/golden.js';
import { haveShared, sharedPath } from './helpers/shared-data.js';

/** Every suite here reads ../shared's goldens and data. */
const HAVE_SHARED = haveShared('golden/README.md');

/** Lines of a data file (cached: many records share files). */
const lineCache = new Map<string, string[]>();
function data(rel: string): string[] {
  let l = lineCache.get(rel);
  if (l === undefined) lineCache.set(rel, (l = readLines(sharedData(rel))));
  return l;
}

/** Prepared references per (files, tokenizer, case): shared across systems, as the API intends. */
const refCache = new Map<string, BleuReferences>();
function prepared(bleu: Bleu, refs: string[]): BleuReferences {
  const key = `${refs.join('+')}|${bleu.textKey}`;
  let p = refCache.get(key);
  if (p === undefined) refCache.set(key, (p = bleu.prepareReferences(refs.map(data))));
  return p;
}

/**
 * Column sums of order-`n` statistics. For the option grids (orders 2, 4, 6 of one text setting) they are computed
 * once at order `wide` and sliced: order-N rows are the first columns of order-M rows (test/bleu-paths.test.ts).
 */
const statsCache = new Map<string, Float64Array>();
function corpusTotals(hyp: string, refs: string[], c: SacrebleuConfig, widen = false): number[] {
  const wide = widen ? Math.max(6, c.max_ngram_order) : c.max_ngram_order;
  const key = `${hyp}|${refs.join('+')}|${c.tokenize}|${c.lowercase}|${wide}`;
  let t = statsCache.get(key);
  if (t === undefined) {
    const bleu = new Bleu({ ...bleuOptions(c), maxNgramOrder: wide });
    t = sumRows(bleu.segmentStats(data(hyp), prepared(bleu, refs)), bleu.statsWidth);
    statsCache.set(key, t);
  }
  const n = c.max_ngram_order;
  return [t[0], t[1], ...t.subarray(2, 2 + n), ...t.subarray(2 + wide, 2 + wide + n)];
}

interface CorpusRecord {
  hyp: string;
  refs: string[];
  config: SacrebleuConfig & { metric: string };
  corpus: Record<string, any>;
  segments?: unknown[][];
  segment_fields?: string[];
  sentence_signature?: string;
}

/** Checks a sacrebleu corpus BLEU record: statistics, score, precisions, BP, signature, CLI text when present. */
function checkCorpusRecord(r: CorpusRecord, m: Mismatches, source: string): void {
  const c = r.corpus;
  const bleu = new Bleu(bleuOptions(r.config));
  const totals = corpusTotals(r.hyp, r.refs, r.config, source.includes('grid'));
  const res = bleu.corpusResult(totals);
  const at = `${source} ${r.hyp} ×${r.refs.length} ${JSON.stringify(bleuOptions(r.config))}`;
  m.float(res.score, c.score, `${at} score`);
  m.exact(
    [res.counts, res.totals, res.sysLen, res.refLen],
    [c.counts, c.totals, c.sys_len, c.ref_len],
    `${at} statistics`,
  );
  res.precisions.forEach((p, i) => m.float(p, c.precisions[i], `${at} precision ${i + 1}`));
  m.float(res.bp, c.bp, `${at} bp`);
  m.exact(withVersion(bleu.signature(r.refs.length)), c.signature, `${at} signature`);
  m.exact(withVersion(bleu.signature(r.refs.length, true)), c.signature_short, `${at} short signature`);
  if (c.cli_text_w2 !== undefined) {
    const s = bleu.scoreFromStats(new Float64Array(totals));
    m.exact(
      `BLEU|${withVersion(bleu.signature(r.refs.length))} = ${pyFixed(s.score, 2)} ${s.verboseScore}`,
      c.cli_text_w2,
      `${at} CLI text`,
    );
  }
}

/** Checks every BLEU record (corpus or sentence level) of a golden/sacrebleu file. */
function checkSacrebleuFile(rel: string): Mismatches {
  const m = new Mismatches();
  for (const r of sharedGolden<{ records: CorpusRecord[] }>(rel).records) {
    if (r.config.metric === 'BLEU') checkCorpusRecord(r, m, rel);
    else if (r.config.metric === 'BLEU (sentence level)') {
      checkSentenceRecord({ ...(r as unknown as SentenceRecord), source: rel }, data(r.hyp), r.refs.map(data), m);
    }
  }
  return m;
}

describe.skipIf(!HAVE_SHARED)('sacrebleu goldens (../shared/golden/sacrebleu)', () => {
  for (const rel of [
    'sacrebleu/bleu-corpus-grid.wmt17-en-de.json',
    'sacrebleu/bleu-corpus-grid.wmt21-en-de.json',
    'sacrebleu/char-bleu18.json',
    'sacrebleu/bleu-sentence.wmt17-en-de.json',
    'sacrebleu/bleu-sentence.wmt21-en-de.json',
    'sacrebleu/corpus-all-systems.wmt17-en-de.json',
    'sacrebleu/corpus-all-systems.wmt21-en-de.json',
    'sacrebleu/compare-mt.json',
    'sacrebleu/nltk-wmt15-eval.json',
  ]) {
    it(`every BLEU record of ${rel}`, () => {
      const m = checkSacrebleuFile(rel);
      expect(m.checked).toBeGreaterThan(0);
      expect(m.list, m.summary()).toEqual([]);
    });
  }

  it('test_sh_expected_scores.tsv: mteval-v13a (MTEVAL) and v14 intl (MTEVAL14) BLEU of the en-de systems, 2 decimals', () => {
    const m = new Mismatches();
    const rows = readLines(sharedData('sacrebleu-tests/test_sh_expected_scores.tsv')).map((l) => l.split('\t'));
    const head = rows[0];
    const col = (name: string): number => head.indexOf(name);
    for (const row of rows.slice(1)) {
      const table = row[col('table')];
      const here = row[col('data_here')];
      if ((table !== 'MTEVAL' && table !== 'MTEVAL14') || !here) continue;
      const bleu = new Bleu({ tokenize: table === 'MTEVAL14' ? 'intl' : '13a' });
      const hyp = `sacrebleu-tests/${here}`;
      const score = bleu.corpusResult(
        corpusTotals(hyp, ['sacrebleu-tests/wmt17-en-de/ref.de'], {
          tokenize: bleu.options.tokenize,
          lowercase: false,
          smooth_method: 'exp',
          smooth_value: null,
          max_ngram_order: 4,
          effective_order: false,
        }),
      ).score;
      m.check(
        Math.abs(Number(pyFixed(score, 2)) - Number(row[col('expected')])) <= 1e-9,
        () => `${table} ${here}: ${score} vs ${row[col('expected')]}`,
      );
    }
    expect(m.checked).toBe(17);
    expect(m.list, m.summary()).toEqual([]);
  });
});

describe.skipIf(!HAVE_SHARED)('mteval and multi-bleu goldens (../shared/golden/moses)', () => {
  const printedNumber = (lines: string[], re: RegExp): number | undefined => {
    for (const l of lines) {
      const hit = re.exec(l);
      if (hit) return Number(hit[1]);
    }
    return undefined;
  };

  it('mteval-v13a/v14 system BLEU and cumulative BLEU-1…9 on WMT17, WMT21 and nltk-wmt15 (= sacrebleu 13a/intl)', () => {
    const m = new Mismatches();
    const lc = (l: string): string => l.replace(/[A-Z]+/g, (x) => x.toLowerCase());
    const entities = (l: string): string =>
      l
        .replaceAll('&quot;', '"')
        .replaceAll('&amp;', '&')
        .replaceAll('&lt;', '<')
        .replaceAll('&gt;', '>')
        .replaceAll('&apos;', "'");
    for (const rel of [
      'moses/mteval.wmt17-en-de.json',
      'moses/mteval.wmt21-en-de.json',
      'moses/mteval.nltk-wmt15-eval.json',
    ]) {
      for (const r of sharedGolden<{ records: any[] }>(rel).records) {
        const tool: string = r.config.tool;
        if (!tool.startsWith('mteval') || r.error) continue;
        const args: string[] = r.config.args;
        const intl = args.includes('--international-tokenization');
        // nltk-wmt15-eval's SGML: the <seg> texts of the hypothesis file are exactly google.ru (Moses-tokenized, with
        // &quot;), the reference's are the raw 100-sentence file.
        const wmt15 = rel.includes('nltk-wmt15');
        const hypFile = wmt15 ? 'nltk-wmt15-eval/google.ru' : r.hyp;
        const refFiles: string[] = wmt15 ? ['nltk-wmt15-eval/newstest-2015-100sents.en-ru.ref.ru'] : r.refs;
        // Without -c mteval lowercases with Perl's byte-wise lc: ASCII letters only (Ä stays Ä), unlike sacrebleu's
        // Unicode lowercase. mteval-v14's international tokenization decodes &quot; &amp; &lt; &gt; &apos; first,
        // sacrebleu's intl does not. The text is prepared that way here and scored with sacrebleu's tokenizers.
        const prep = (l: string): string => {
          if (!args.includes('-c')) l = lc(l);
          return intl ? entities(l) : l;
        };
        const refLength = args.includes('shortest') ? 'shortest' : 'closest';
        const bleu9 = new Bleu({ tokenize: intl ? 'intl' : '13a', maxNgramOrder: 9, refLength });
        const rows = bleu9.segmentStats(
          data(hypFile).map(prep),
          bleu9.prepareReferences(refFiles.map((f) => data(f).map(prep))),
        );
        const t9 = sumRows(rows, bleu9.statsWidth);
        const printed: string[] = r.corpus.printed;
        const at = `${rel} ${r.hyp} ${args.join(' ')}`;
        const system = printedNumber(printed, /BLEU score = ([0-9.]+) for system/);
        const cumulative = printed
          .filter((l) => l.trim().startsWith('BLEU:'))
          .pop()!
          .trim()
          .split(/\s+/)
          .slice(1, 10)
          .map(Number);
        for (let n = 1; n <= 9; n++) {
          // Order-n statistics are the first columns of the order-9 rows (test/bleu-paths.test.ts).
          const bleu = new Bleu({ tokenize: intl ? 'intl' : '13a', maxNgramOrder: n, refLength });
          const totals = [t9[0], t9[1], ...t9.subarray(2, 2 + n), ...t9.subarray(11, 11 + n)];
          const score = bleu.corpusResult(totals).score / 100;
          m.check(
            Math.abs(score - cumulative[n - 1]) <= 5e-5,
            () => `${at} BLEU-${n}: ${score} vs ${cumulative[n - 1]}`,
          );
          if (n === 4) m.check(Math.abs(score - system!) <= 5e-5, () => `${at} system BLEU: ${score} vs ${system}`);
        }
      }
    }
    expect(m.checked).toBe(140); // 14 mteval runs × (BLEU-1…9 + system BLEU)
    expect(m.list, m.summary()).toEqual([]);
  });

  /** The hypotheses of a multi-bleu.json record. */
  function multiBleuHyps(r: any): string[] {
    if (r.dataset !== 'joshua-bn-en') return data(r.hyp);
    // The first candidate of each sentence id of the n-best list, text field stripped (golden/README.md).
    const nbest = data(r.hyp.split(' ')[0]);
    const first = new Map<number, string>();
    for (const l of nbest) {
      const f = l.split(' ||| ');
      const id = Number(f[0]);
      if (!first.has(id)) first.set(id, f[1].trim());
    }
    return [...first.keys()].sort((a, b) => a - b).map((k) => first.get(k)!);
  }

  /** The numbers multi-bleu.perl prints beside the score. */
  interface MultiBleuParts {
    precisions: number[];
    bp: number;
    ratio: number;
    sysLen: number;
    refLen: number;
  }

  /** multi-bleu.perl's output line for a BLEU (0–100) and the numbers printed beside it. */
  function multiBleuLine(score: number, d: MultiBleuParts): string {
    return (
      `BLEU = ${pyFixed(score, 2)}, ${d.precisions.map((p) => pyFixed(p, 1)).join('/')} ` +
      `(BP=${pyFixed(d.bp, 3)}, ratio=${pyFixed(d.ratio, 3)}, hyp_len=${d.sysLen}, ref_len=${d.refLen})`
    );
  }

  it('multi-bleu.perl corpus BLEU (tokenize none, no smoothing) on compare-mt and Joshua 1-best lists, as printed', () => {
    const m = new Mismatches();
    for (const r of sharedGolden<{ records: any[] }>('moses/multi-bleu.json').records) {
      const hyps = multiBleuHyps(r);
      const bleu = new Bleu({ tokenize: 'none', smoothMethod: 'none', lowercase: r.config.args.includes('-lc') });
      const res = bleu.corpusResult(
        sumRows(bleu.segmentStats(hyps, bleu.prepareReferences(r.refs.map(data))), bleu.statsWidth),
      );
      m.exact(multiBleuLine(res.score, res), r.corpus.printed, `${r.hyp} ${r.config.args.join(' ')}`);
    }
    expect(m.checked).toBe(8);
    expect(m.list, m.summary()).toEqual([]);
  });

  it('the moses flavor (BleuScorer, single precision) prints what multi-bleu.perl prints, corpus and lines', () => {
    // multi-bleu.perl and Moses' BleuScorer count the same statistics (whitespace tokens, closest reference length,
    // max-merged reference n-grams) and both give 0 when an order has no match; multi-bleu computes in double,
    // BleuScorer in float, so they are compared at multi-bleu's printed precision. The per-line goldens score each
    // line as a one-line corpus: scoreFromStats of that line's row.
    const m = new Mismatches();
    for (const r of sharedGolden<{ records: any[] }>('moses/multi-bleu.json').records) {
      const moses = new MosesBleu({ lowercase: r.config.args.includes('-lc') });
      const rows = moses.segmentStats(multiBleuHyps(r), moses.prepareReferences(r.refs.map(data)));
      const corpus = moses.corpusScoreFromRows(rows);
      const at = `${r.hyp} ${r.config.args.join(' ')}`;
      m.exact(multiBleuLine(100 * corpus.score, corpus.details as unknown as MultiBleuParts), r.corpus.printed, at);
      const w = moses.statsWidth;
      for (const [line, printed] of (r.segments ?? []) as [number, string][]) {
        const one = moses.scoreFromStats(rows.slice((line - 1) * w, line * w));
        const details = one.details as unknown as MultiBleuParts;
        m.exact(multiBleuLine(100 * one.score, details), printed, `${at} line ${line}`);
      }
    }
    expect(m.checked).toBe(8 + 2445);
    expect(m.list, m.summary()).toEqual([]);
  });
});

describe.skipIf(!HAVE_SHARED)('NLTK goldens (../shared/golden/nltk)', () => {
  const METHODS: NltkSmoothingMethod[] = [0, 1, 2, 3, 4, 5, 6, 7];
  /** The token lists a record's `config.tokenization` describes. */
  function tokensOf(lines: string[], tokenization: string): string[][] {
    if (tokenization.startsWith('tokens = line.split()')) return lines.map(pySplit);
    const lower = tokenization.includes('line.lower()');
    return lines.map((l) => pySplit(tokenize13a(lower ? pyLower(l) : l)));
  }
  const outcome = (f: () => number): number | string => {
    try {
      return f();
    } catch (e) {
      if (e instanceof NltkBleuError) return e.pythonError;
      throw e;
    }
  };
  const same = (got: number | string, expected: number | { error: string }): boolean =>
    typeof expected === 'number'
      ? typeof got === 'number' && closeTo(got, expected)
      : got === expected.error.split(':')[0];

  for (const rel of [
    'nltk/bleu-nist.nltk-wmt15-eval.json',
    'nltk/bleu-nist.wmt17-en-de.json',
    'nltk/bleu-nist.compare-mt.json',
    'nltk/bleu-nist.wmt21-en-de.json',
  ]) {
    it(`BLEU methods 0–7, corpus and per segment: ${rel}`, () => {
      const m = new Mismatches();
      for (const r of sharedGolden<{ records: any[] }>(rel).records) {
        const hyps = tokensOf(data(r.hyp), r.config.tokenization);
        const refStreams = r.refs.map((f: string) => tokensOf(data(f), r.config.tokenization));
        const listOfRefs = hyps.map((_, i) => refStreams.map((s: string[][]) => s[i]));
        const weights: number[] = r.config.weights;
        const order = weights.length;
        const stats = nltkSegmentStats(listOfRefs, hyps, order);
        const totals = sumNltkStats(stats, order);
        for (const k of METHODS) {
          const expected = r.corpus[`bleu_method${k}`];
          const got = outcome(() => nltkBleuFromStats(totals, stats[stats.length - 1], { method: k, weights }));
          m.check(
            same(got, expected),
            () => `${rel} ${r.hyp} corpus method${k}: ${got} vs ${JSON.stringify(expected)}`,
          );
          if (!r.segments) continue;
          const col = r.segment_fields.indexOf(`bleu_method${k}`);
          for (const seg of r.segments) {
            const s = stats[seg[0] - 1];
            const v = outcome(() => nltkBleuFromStats(s, s, { method: k, weights }));
            m.check(
              same(v, seg[col]),
              () => `${rel} ${r.hyp} line ${seg[0]} method${k}: ${v} vs ${JSON.stringify(seg[col])}`,
            );
          }
        }
      }
      expect(m.list, m.summary()).toEqual([]);
    });
  }
});

describe.skipIf(!HAVE_SHARED)('edge goldens (../shared/golden/edge), all 1000 pairs', () => {
  it('pairs_sacrebleu.jsonl BLEU: statistics and scores for every smoothing, effective order, tokenizer and case', () => {
    const pairs = new Map(readJsonl(sharedPath('golden/edge/pairs.jsonl')).map((p) => [p.pair, p]));
    const m = new Mismatches();
    for (const g of readJsonl(sharedPath('golden/edge/pairs_sacrebleu.jsonl'))) {
      const p = pairs.get(g.pair)!;
      checkEdgePair({ pair: g.pair, kind: p.kind, hyp: p.hyp, ref: p.ref, bleu: g.bleu }, m);
    }
    expect(m.checked).toBeGreaterThan(20000);
    expect(m.list, m.summary()).toEqual([]);
  });

  it('pairs_nltk.jsonl: sentence_bleu methods 0–7 (scores and exceptions)', () => {
    const m = new Mismatches();
    for (const p of readJsonl(sharedPath('golden/edge/pairs_nltk.jsonl'))) {
      const stats = nltkSegmentStats([[p.ref_toks]], [p.hyp_toks], 4)[0];
      for (let k = 0; k <= 7; k++) {
        const exp = p[`method${k}`];
        let got: number | string;
        try {
          got = nltkBleuFromStats(stats, stats, { method: k as NltkSmoothingMethod });
        } catch (e) {
          if (!(e instanceof NltkBleuError)) throw e;
          got = e.pythonError;
        }
        const ok =
          'error' in exp ? got === exp.error.split(':')[0] : typeof got === 'number' && closeTo(got, exp.score);
        m.check(ok, () => `pair ${p.pair} method${k}: ${got} vs ${JSON.stringify(exp)}`);
      }
    }
    expect(m.checked).toBe(8000);
    expect(m.list, m.summary()).toEqual([]);
  });
});

describe.skipIf(!HAVE_SHARED)('Moses extractor (../shared/data/moses-mert/mert.extractor-txt)', () => {
  it('every SCORES_TXT line of the five runs, each merged with the previous run and de-duplicated', () => {
    const dir = 'moses-mert/mert.extractor-txt';
    const refs = prepareMosesReferences([data(`${dir}/data/reference`)]);
    // truth/results.txt: "STDOUT_k=..." lines; one FEATURES/SCORES dump per run.
    const truth = data(`${dir}/truth/results.txt`).map((l) => l.slice(l.indexOf('=') + 1));
    const runs: string[][] = [];
    let current: string[] | undefined;
    let inScores = false;
    for (const l of truth) {
      if (l.startsWith('FEATURES_TXT_BEGIN_0 0 ')) runs.push((current = []));
      if (l.startsWith('SCORES_TXT_BEGIN_0')) inScores = true;
      if (inScores) current!.push(l);
      if (l.startsWith('SCORES_TXT_END_0')) inScores = false;
    }
    expect(runs.length).toBe(5);
    let previous = new Map<number, MosesCandidate[]>();
    for (let run = 1; run <= 5; run++) {
      const { ids, texts, features } = parseNbest(data(`${dir}/data/nbest.${run}`));
      const stats = mosesBleuStats(texts, ids, refs);
      const cands = features.map((f, i) => ({ features: f, stats: Array.from(stats.subarray(i * 9, (i + 1) * 9)) }));
      previous = mosesExtractorMerge(previous, ids, cands);
      expect(formatMosesScores(previous), `run ${run}`).toEqual(runs[run - 1]);
    }
  });
});
