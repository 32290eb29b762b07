import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { run } from '../src/cli/main.js';
import { pyFixed } from '../src/cli/py-format.js';
import { readLines } from '../src/node/read-lines.js';
import { Bleu } from '../src/metrics/bleu/bleu.js';
import { LinOchBleu } from '../src/metrics/bleu/lin-och.js';
import { MosesBleu } from '../src/metrics/bleu/moses-metric.js';
import { NltkBleu } from '../src/metrics/bleu/nltk-metric.js';
import { Chrf } from '../src/metrics/chrf/chrf.js';
import { corpusScore, sentenceScores, type Metric } from '../src/metrics/metric.js';
import { Nist } from '../src/metrics/nist/nist.js';
import { pyRstrip } from '../src/text/pystr.js';
import { VERSION } from '../src/version.js';
import { captureCli } from './helpers/cli.js';

// The real metrics through `palette score` on samples/ (300 lines of WMT17 en-de): every number the CLI prints must
// be the library's number for the same settings, formatted as sacrebleu formats it (every BLEU flavor included), and
// where an oracle raises on the data, the CLI must say where and why. (sacrebleu's own printed output is compared in
// cli-shared-goldens.test.ts.)

const sample = (p: string): string => fileURLToPath(new URL(`../samples/wmt17-en-de/${p}`, import.meta.url));
const REF = sample('ref.de');
const SYSTEMS = ['LIUM-NMT.4900', 'uedin-nmt.4722', 'online-B.0'].map((s) => sample(`sys/${s}.de`));
const lines = (file: string): string[] => readLines(file).map(pyRstrip);

async function palette(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  return paletteWithStdin(undefined, ...argv);
}

async function paletteWithStdin(
  stdin: string | undefined,
  ...argv: string[]
): Promise<{ code: number; out: string; err: string }> {
  return captureCli(run, ['score', ...argv], { stdin: stdin === undefined ? undefined : Readable.from([Buffer.from(stdin)]) });
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

describe('--bleu-flavor moses and lin-och', () => {
  const hyps = lines(SYSTEMS[0]);
  const refs = [lines(REF)];

  it("moses: corpus BLEU summed as Moses sums it, 0-1 scale, Moses' own space split or -tok", async () => {
    for (const extra of [[], ['-tok', '13a', '-lc', '--bleu-ref-length', 'shortest']]) {
      const r = await palette(REF, '-i', SYSTEMS[0], '--bleu-flavor', 'moses', '-w', '6', ...extra);
      expect(r.code, r.err).toBe(0);
      const moses = new MosesBleu(
        extra.length === 0 ? {} : { tokenize: '13a', lowercase: true, refLength: 'shortest' },
      );
      const score = moses.corpusScoreFromRows(moses.segmentStats(hyps, moses.prepareReferences(refs)));
      expect(JSON.parse(r.out)).toMatchObject({
        name: 'BLEU',
        score: Number(pyFixed(score.score, 6)),
        signature: moses.signature(1),
        verbose_score: score.verboseScore,
        flavor: 'moses',
      });
    }
  });

  it('moses -sl: smoothed sentence BLEU (BLEU+1) per line, with its signature', async () => {
    const r = await palette(REF, '-i', SYSTEMS[1], '--bleu-flavor', 'moses', '-tok', '13a', '-sl', '-w', '4');
    const printed = r.out.trimEnd().split('\n');
    const moses = new MosesBleu({ tokenize: '13a' });
    const expected = sentenceScores(moses, lines(SYSTEMS[1]), [lines(REF)]);
    expect(printed).toHaveLength(300);
    expect(moses.sentenceSignature(1)).toContain('|smooth:add[1.00]|');
    printed.forEach((line, i) => {
      const e = expected[i];
      expect(line).toBe(`BLEU|${moses.sentenceSignature(1)} = ${pyFixed(e.score, 4)} ${e.verboseScore}`);
    });
  });

  it('lin-och: BLEUS at corpus and sentence level (-sl keeps effective order off)', async () => {
    const flags = ['--bleu-flavor', 'lin-och', '--bleu-max-ngram-order', '2', '-w', '6', '-f', 'text'];
    const corpus = await palette(REF, '-i', SYSTEMS[0], ...flags);
    const lo = new LinOchBleu({ maxNgramOrder: 2 });
    const c = corpusScore(lo, hyps, refs);
    expect(corpus.out).toBe(`BLEU|${lo.signature(1)} = ${pyFixed(c.score, 6)} ${c.verboseScore}\n`);
    const sl = await palette(REF, '-i', SYSTEMS[0], '--bleu-flavor', 'lin-och', '-sl', '-sh', '-w', '3');
    const full = new LinOchBleu();
    const expected = sentenceScores(full, hyps, refs);
    sl.out.trimEnd().split('\n').forEach((line, i) => {
      const e = expected[i];
      expect(line).toBe(`BLEU|${full.signature(1, true)} = ${pyFixed(e.score, 3)} ${e.verboseScore}`);
    });
  });

  it('refuses the flags a flavor has no use for', async () => {
    const refused: [string[], string][] = [
      [['--bleu-flavor', 'moses', '-s', 'floor'], "-s/--smooth-method applies to --bleu-flavor sacrebleu (Moses'"],
      [['--bleu-flavor', 'lin-och', '-sv', '2'], '-sv/--smooth-value applies to --bleu-flavor sacrebleu (lin-och'],
      [['--bleu-flavor', 'lin-och', '--bleu-effective-order'], '--bleu-effective-order applies to --bleu-flavor'],
      [['--bleu-flavor', 'moses', '--nltk-smoothing', '1'], '--nltk-smoothing needs --bleu-flavor nltk'],
      [['--bleu-flavor', 'nltk', '--bleu-ref-length', 'shortest'], 'NLTK uses the closest reference length'],
      [['--bleu-flavor', 'mteval'], '--bleu-flavor must be one of sacrebleu, nltk, moses, lin-och'],
    ];
    for (const [flags, message] of refused) {
      const r = await palette(REF, '-i', SYSTEMS[0], ...flags);
      expect([r.code, r.out], r.err).toEqual([2, '']);
      expect(r.err).toContain(message);
    }
  });
});

describe('where an oracle raises, the CLI names the file, the line and the reason (exit 2)', () => {
  /** The first segment (1-based) whose sentence score throws, and the error. */
  function firstFailure(
    metric: { sentenceScoreFromStats(row: Float64Array): unknown; statsWidth: number },
    rows: Float64Array,
  ): [number, Error] {
    for (let i = 0; i * metric.statsWidth < rows.length; i++) {
      try {
        metric.sentenceScoreFromStats(rows.subarray(i * metric.statsWidth, (i + 1) * metric.statsWidth));
      } catch (e) {
        return [i + 1, e as Error];
      }
    }
    throw new Error('no segment fails');
  }

  it('NLTK BLEU method 6 on a segment without a matching trigram (-sl)', async () => {
    const nltk = new NltkBleu({ method: 6, tokenize: '13a' });
    const rows = nltk.segmentStats(lines(SYSTEMS[1]), nltk.prepareReferences([lines(REF)]));
    const [line, error] = firstFailure(nltk, rows);
    expect(error.message).toContain('AssertionError');
    const flags = ['--bleu-flavor', 'nltk', '--nltk-smoothing', '6', '-tok', '13a', '-sl'];
    const r = await palette(REF, '-i', SYSTEMS[1], ...flags);
    expect(r).toEqual({ code: 2, out: '', err: `palette: error: ${SYSTEMS[1]}:${line}: ${error.message}\n` });
    expect(r.err).toContain('AssertionError: This smoothing method requires non-zero precision for bigrams.');
    // Tab-separated systems on standard input are named by column.
    const stdin = await paletteWithStdin(readLines(SYSTEMS[1]).join('\n') + '\n', REF, ...flags);
    expect([stdin.code, stdin.err]).toEqual([2, `palette: error: <stdin> (column 1):${line}: ${error.message}\n`]);
  });

  it('NLTK BLEU at corpus level names the file (IndexError: method 6 with two orders)', async () => {
    const flags = ['--bleu-flavor', 'nltk', '--nltk-smoothing', '6', '--bleu-max-ngram-order', '2'];
    const r = await palette(REF, '-i', SYSTEMS[0], ...flags);
    expect(r).toEqual({
      code: 2,
      out: '',
      err:
        `palette: error: ${SYSTEMS[0]}: NLTK BLEU raises IndexError: list index out of range ` +
        '(smoothing method 6 needs at least 3 n-gram orders, the weights give 2)\n',
    });
  });

  it('NLTK NIST on a hypothesis shorter than N words (-sl) instead of printing nan', async () => {
    const nist = new Nist({ flavor: 'nltk', onOracleFailure: 'throw' });
    const rows = nist.segmentStats(lines(SYSTEMS[0]), nist.prepareReferences([lines(REF)]));
    const [line, error] = firstFailure(nist, rows);
    expect(error.message).toMatch(/^NLTK NIST raises ZeroDivisionError: no hypothesis \d-gram in this segment/);
    const r = await palette(REF, '-i', SYSTEMS[0], '-m', 'nist', '--nist-flavor', 'nltk', '-sl');
    expect(r).toEqual({ code: 2, out: '', err: `palette: error: ${SYSTEMS[0]}:${line}: ${error.message}\n` });
  });
});
