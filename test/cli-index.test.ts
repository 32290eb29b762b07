import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as palette from '../src/index.js';

// The package entry point (package.json "exports" → dist/index.js): the README's library examples work from it, and
// every public metric, error class and helper is exported.

const sample = (p: string): string => fileURLToPath(new URL(`../samples/wmt17-en-de/${p}`, import.meta.url));

describe('public API (src/index.ts)', () => {
  it('scores a corpus as the README shows', () => {
    const hyps = palette.readLines(sample('sys/online-B.0.de'));
    const refs = palette.readLines(sample('ref.de'));
    const bleu = palette.corpusScore(new palette.Bleu(), hyps, [refs]);
    expect(bleu.name).toBe('BLEU');
    expect(bleu.score).toBeGreaterThan(0);
    expect(bleu.verboseScore).toMatch(/^[\d.]+\/[\d.]+\/[\d.]+\/[\d.]+ \(BP = /);
    const chrf = palette.corpusScore(new palette.Chrf({ wordOrder: 2 }), hyps, [refs]);
    expect(chrf.name).toBe('chrF2++');
  });

  it("scores ROUGE as the README's ROUGE section shows", () => {
    const hyps = ['police kill the gunman', 'the gunman kill police'];
    const refs = ['police killed the gunman', 'police killed the gunman'];
    const rougeL = new palette.Rouge({ type: 'rouge-l', flavor: 'paper' });
    // Lin & Och 2004's worked example (spec/METRICS.md §4): S2 0.75, S3 0.5.
    expect(palette.sentenceScores(rougeL, hyps, [refs]).map((s) => s.score)).toEqual([0.75, 0.5]);
    const candidates = ['police kill the gunman', 'the gunman kill police', 'the gunman police killed'];
    const sStar = new palette.Rouge({ type: 'rouge-s*', flavor: 'paper' });
    const s = palette.sentenceScores(sStar, candidates, [candidates.map(() => 'police killed the gunman')]);
    expect(s.map((x) => x.score)).toEqual([0.5, 1 / 6, 1 / 3]);
    const unit = palette.rouge155Unit(['police kill the gunman'], [['police killed the gunman']], {
      maxN: 1,
      su: false,
      stem: false,
      stopwords: false,
      formula: 'A',
      alpha: 0.5,
      countMode: 0,
    });
    expect(unit.map((u) => [u.type, u.printed])).toEqual([
      ['ROUGE-1', ['0.75000', '0.75000', '0.75000']],
      ['ROUGE-L', ['0.75000', '0.75000', '0.75000']],
    ]);
  });

  it('exports the metric classes, errors, helpers, registry, reader and the CLI function', () => {
    const names = [
      // metrics and their helpers
      'Bleu', 'characterBleu', 'bleuFromStats', 'Chrf', 'Nist', 'NIST_FLAVORS', 'NltkBleu', 'nltkCorpusBleu',
      'nltkSentenceBleu', 'MosesBleu', 'MOSES_REF_LENGTHS', 'mosesBleu', 'mosesBleuStats', 'mosesSentenceBleuPlusOne',
      'mosesSmoothedSentenceBleu', 'prepareMosesReferences', 'LinOchBleu', 'linOchBleu', 'linOchBleuFromStats',
      'Cer', 'Gleu', 'Ribes', 'Meteor', 'setWordnetLoader',
      // ROUGE
      'Rouge', 'parseRougeType', 'resolveRougeOptions', 'rougeTypeId', 'rougeTypeName', 'ROUGE_FLAVORS',
      'ROUGE_MULTI_REFERENCE', 'ROUGE_STATS_COLUMNS', 'ROUGE_STATS_WIDTH', 'rouge155Unit', 'BASIC_ELEMENT_MODES',
      'rouge155Bootstrap', 'parseSentenceSplit', 'splitSentences', 'SENTENCE_SPLIT_NAMES', 'ROUGE_TOKENIZER_NAMES',
      // errors
      'PaletteError', 'InputError', 'NistOracleError', 'NltkBleuError', 'locate',
      // contract, registry, text, corpora, CLI
      'corpusScore', 'sentenceScore', 'sentenceScores', 'sumRows', 'formatSignature', 'parseSignature',
      'defaultRegistry', 'cliMetric', 'BLEU_FLAVORS', 'ROUGE_METRIC_FAMILIES', 'defaultRougeFlavor', 'getTokenizer',
      'TOKENIZER_NAMES', 'Vocabulary', 'internLines', 'CsrBuilder', 'csrFromArrays', 'readLines', 'decodeLines',
      'readStreamLines', 'run', 'VERSION',
    ];
    for (const name of names) expect(palette, name).toHaveProperty(name);
    expect(palette.defaultRegistry.ids).toEqual([
      'bleu', 'chrf', 'nist', 'ter', 'wer', 'per', 'cer', 'gleu', 'ribes', 'meteor', 'gtm', 'paraeval', 'impact', 'npchunk',
    ]);
    expect(palette.defaultRegistry.families).toContain('rouge-N');
    expect(new palette.NistOracleError('mteval', 'no reference words')).toBeInstanceOf(palette.InputError);
    expect(new palette.NltkBleuError('IndexError', 'x', 'y')).toBeInstanceOf(palette.InputError);
  });

  it('exports every class and function the metric files declare public', () => {
    // Files whose exports are part of the API: each exported class (a metric or an error) must reach src/index.ts.
    const files = [
      'metrics/bleu/bleu.ts', 'metrics/bleu/nltk-metric.ts', 'metrics/bleu/moses-metric.ts', 'metrics/bleu/lin-och.ts',
      'metrics/chrf/chrf.ts', 'metrics/nist/nist.ts', 'metrics/nist/failure.ts', 'metrics/rouge/rouge.ts', 'metrics/bleu/nltk.ts',
    ];
    for (const file of files) {
      const text = readFileSync(new URL(`../src/${file}`, import.meta.url), 'utf8');
      for (const m of text.matchAll(/^export class (\w+)/gm)) expect(palette, `${file}: ${m[1]}`).toHaveProperty(m[1]);
    }
  });
});

describe('public API: streaming readers and tuning', () => {
  it('exports the streaming readers and the tuning helpers', () => {
    for (const name of [
      'readLineBatches', 'batchLine', 'batchLines', 'readTsvColumnBatches', 'readJsonlFieldBatches', 'readNbestBatches',
      'buildStatsMatrix', 'matrixColumnSums', 'scoreFromTotals', 'selectionScore', 'selectionTotals', 'applyRowDelta',
      'proSample', 'proMegamText', 'readMosesTuningFiles', 'kbmiraOptimize', 'kbmiraBackgroundBleu', 'readKbmiraDenseInit',
    ]) {
      expect(typeof (palette as Record<string, unknown>)[name], name).toBe('function');
    }
  });

  it('scores a selection of one hypothesis per segment as the corpus score of those texts', () => {
    const refs = palette.readLines(sample('ref.de')).slice(0, 20);
    const a = palette.readLines(sample('sys/online-B.0.de')).slice(0, 20);
    const b = palette.readLines(sample('sys/uedin-nmt.4722.de')).slice(0, 20);
    const bleu = new palette.Bleu();
    const prepared = bleu.prepareReferences([refs]);
    // Two candidates per segment: rows 2s (system a) and 2s + 1 (system b).
    const hyps = a.flatMap((h, s) => [h, b[s]]);
    const segments = Int32Array.from(hyps, (_, i) => i >> 1);
    const matrix = palette.buildStatsMatrix(bleu, hyps, segments, prepared);
    const pick = Int32Array.from(refs, (_, s) => 2 * s + (s % 3 === 0 ? 1 : 0));
    const chosen = Array.from(pick, (row) => hyps[row]);
    expect(palette.selectionScore(matrix, pick)).toBe(palette.corpusScore(bleu, chosen, prepared).score);
  });
});
