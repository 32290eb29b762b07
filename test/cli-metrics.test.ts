import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { run, type CliIo } from '../src/cli/main.js';
import { pyFixed } from '../src/cli/py-format.js';
import { readLines } from '../src/corpus/read-lines.js';
import { Bleu } from '../src/metrics/bleu.js';
import { NltkBleu } from '../src/metrics/bleu-nltk-metric.js';
import { Chrf } from '../src/metrics/chrf.js';
import { corpusScore, sentenceScores, type Metric } from '../src/metrics/metric.js';
import { Nist } from '../src/metrics/nist.js';
import { pyRstrip } from '../src/text/pystr.js';
import { VERSION } from '../src/version.js';

// The real metrics through `palette score` on samples/ (300 lines of WMT17 en-de): every number the CLI prints must
// be the library's number for the same settings, formatted as sacrebleu formats it. (sacrebleu's own printed output
// is compared in cli-shared-goldens.test.ts.)

const sample = (p: string): string => fileURLToPath(new URL(`../samples/wmt17-en-de/${p}`, import.meta.url));
const REF = sample('ref.de');
const SYSTEMS = ['LIUM-NMT.4900', 'uedin-nmt.4722', 'online-B.0'].map((s) => sample(`sys/${s}.de`));
const lines = (file: string): string[] => readLines(file).map(pyRstrip);

async function palette(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: CliIo = { stdout: { write: (s: string) => (out += s) }, stderr: { write: (s: string) => (err += s) }, env: {} };
  return { code: await run(['score', ...argv], io), out, err };
}

describe('palette score with BLEU, chrF and NIST', () => {
  it('prints the library scores of one system (JSON, sacrebleu order BLEU, chrF2, NIST)', async () => {
    const r = await palette(REF, '-i', SYSTEMS[0], '-m', 'nist', 'chrf', 'bleu', '-w', '4');
    expect(r.code).toBe(0);
    const printed = JSON.parse(r.out) as { name: string; score: number; signature: string }[];
    const hyps = lines(SYSTEMS[0]);
    const refs = [lines(REF)];
    const expected: [Metric, string, string][] = [
      [new Bleu(), 'BLEU', `nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:${VERSION}`],
      [new Chrf(), 'chrF2', `nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:${VERSION}`],
      [new Nist(), 'NIST', `nrefs:1|case:mixed|tok:13a|n:5|flavor:mteval|version:${VERSION}`],
    ];
    expect(printed.map((p) => [p.name, p.signature])).toEqual(expected.map(([, name, sig]) => [name, sig]));
    expected.forEach(([metric], k) => {
      expect(printed[k].score).toBe(Number(pyFixed(corpusScore(metric, hyps, refs).score, 4)));
    });
  });

  it('prints the multi-system table with the three metrics', async () => {
    const r = await palette(REF, '-i', ...SYSTEMS, '-m', 'bleu', 'chrf', 'nist', '-f', 'text', '-q');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/│ +System │ +BLEU +│ +chrF2 +│ +NIST +│/);
    const bleu = new Bleu();
    const prepared = bleu.prepareReferences([lines(REF)]);
    for (const system of SYSTEMS) {
      const score = pyFixed(corpusScore(bleu, lines(system), prepared).score, 1);
      expect(r.out).toMatch(new RegExp(`│ +${system.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} │ +${score} +│`));
    }
    expect(r.out).toContain(` - BLEU       nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:${VERSION}\n`);
  });

  it('scores sentences with effective order, as sacrebleu -sl does', async () => {
    const r = await palette(REF, '-i', SYSTEMS[1], '-sl', '-w', '2');
    const printed = r.out.trimEnd().split('\n');
    const expected = sentenceScores(new Bleu({ effectiveOrder: true }), lines(SYSTEMS[1]), [lines(REF)]);
    expect(printed).toHaveLength(300);
    printed.forEach((line, i) => {
      expect(line).toBe(
        `BLEU|nrefs:1|case:mixed|eff:yes|tok:13a|smooth:exp|version:${VERSION} = ${pyFixed(expected[i].score, 2)} ${expected[i].verboseScore}`,
      );
    });
  });

  it('passes BLEU, chrF and NIST options through', async () => {
    const hyps = lines(SYSTEMS[2]);
    const refs = [lines(REF)];
    const score = async (...argv: string[]): Promise<string> => (await palette(REF, '-i', SYSTEMS[2], '-b', '-w', '6', ...argv)).out.trim();
    expect(await score('-tok', 'intl', '-lc', '-s', 'floor', '-sv', '0.2', '--bleu-max-ngram-order', '3')).toBe(
      pyFixed(corpusScore(new Bleu({ tokenize: 'intl', lowercase: true, smoothMethod: 'floor', smoothValue: 0.2, maxNgramOrder: 3 }), hyps, refs).score, 6),
    );
    expect(await score('-m', 'chrf', '-cw', '2', '--chrf-eps-smoothing', '--chrf-beta', '3')).toBe(
      pyFixed(corpusScore(new Chrf({ wordOrder: 2, epsSmoothing: true, beta: 3 }), hyps, refs).score, 6),
    );
    expect(await score('-m', 'nist', '--nist-flavor', 'nltk', '--nist-max-ngram-order', '4')).toBe(
      pyFixed(corpusScore(new Nist({ flavor: 'nltk', maxOrder: 4 }), hyps, refs).score, 6),
    );
    // NLTK's method 7 needs the last segment too: the CLI scores it from the rows in corpus order.
    const nltk = new NltkBleu({ method: 7, tokenize: '13a' });
    expect(await score('--bleu-flavor', 'nltk', '--nltk-smoothing', '7', '-tok', '13a')).toBe(
      pyFixed(nltk.corpusScoreFromRows(nltk.segmentStats(hyps, nltk.prepareReferences(refs))).score, 6),
    );
  });

  it('refuses sacrebleu-only BLEU options with the nltk flavor, and --nltk-smoothing without it', async () => {
    const a = await palette(REF, '-i', SYSTEMS[0], '--bleu-flavor', 'nltk', '-s', 'floor');
    expect([a.code, a.out]).toEqual([2, '']);
    expect(a.err).toContain('-s/--smooth-method applies to --bleu-flavor sacrebleu');
    const b = await palette(REF, '-i', SYSTEMS[0], '--nltk-smoothing', '2');
    expect([b.code, b.err.includes('--nltk-smoothing needs --bleu-flavor nltk')]).toEqual([2, true]);
  });
});
