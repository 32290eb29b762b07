/**
 * scripts/experiments.ts (`npm run experiments`) on a tiny slice of ../shared/data, so that the script cannot rot
 * silently: every experiment runs, and the correlations it reports are checked against ones recomputed here by a
 * second route — human scores parsed from the TSV files in this test, metric scores from the Metric API's
 * `corpusScore`/`sentenceScores`, Pearson from src/meta/correlation.ts. Skips when ../shared is absent.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { pearson, spearman } from '../src/meta/correlation.js';
import { jackknifeScore } from '../src/meta/jackknife.js';
import { Bleu } from '../src/metrics/bleu/bleu.js';
import { corpusScore, sentenceScores } from '../src/metrics/metric.js';
import { Wer } from '../src/metrics/wer/wer.js';
import { experimentsMain, parseExperimentArgs } from '../scripts/experiments/cli.js';
import { JOSHUA_DIR, MOSES_DIR, SUMMEVAL_DIR, WMT_DIR, loadWmtEnDe } from '../scripts/experiments/data.js';
import { SEED_METRICS, stemText } from '../scripts/experiments/metric-variants.js';
import { renderReport } from '../scripts/experiments/render.js';
import { runExperiments } from '../scripts/experiments/run.js';
import { haveShared, sharedPath } from './helpers/shared-data.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const DATA = sharedPath('data');
/** Every corpus the experiments read, as paths inside ../shared. */
const EXPERIMENT_DATA = [WMT_DIR, SUMMEVAL_DIR, JOSHUA_DIR, MOSES_DIR].map((d) => `data/${d}`);
const WMT = join(DATA, 'wmt21-news-en-de', 'en-de');
const SUMMEVAL = join(DATA, 'summeval');

/** Rows of a TSV file with a header, as objects. */
function tsv(path: string): Record<string, string>[] {
  const [header, ...lines] = readFileSync(path, 'utf8').trimEnd().split('\n');
  const cols = header.split('\t');
  return lines.map((l) => Object.fromEntries(l.split('\t').map((v, i) => [cols[i], v])));
}

function lines(path: string, n: number): string[] {
  return readFileSync(path, 'utf8').split('\n').slice(0, n);
}

const SLICE = { segments: 40, systems: 10, references: 2 };
const VARIANTS = SEED_METRICS.filter((v) => ['BLEU4', 'WER', 'ROUGE-L'].includes(v.name));

describe('stemText', () => {
  it('lowercases, 13a-tokenizes and stems alphabetic tokens longer than 3 characters', () => {
    expect(stemText('The police were Killing 3 gunmen, quickly.')).toBe('the polic were kill 3 gunmen , quickli .');
  });
});

describe('the command line', () => {
  it('defaults to docs/EXPERIMENTS.md, ../shared/data, seed 12345 and every experiment', () => {
    expect(parseExperimentArgs([], ROOT)).toEqual({
      quick: false,
      out: join(ROOT, 'docs', 'EXPERIMENTS.md'),
      data: DATA,
      resamples: undefined,
      seed: 12345,
      only: undefined,
    });
    expect(parseExperimentArgs(['--quick', '--resamples', '5', '--only', 'orange,bleu-wc'], ROOT)).toMatchObject({
      quick: true,
      resamples: 5,
      only: ['orange', 'bleu-wc'],
    });
  });

  it.each([
    [['--resamples', 'x'], '--resamples needs an integer ≥ 0 (got "x")'],
    [['--seed'], '--seed needs a value'],
    [['--only', 'wmt,nope'], 'unknown experiment "nope"'],
    [['--fast'], 'unknown argument "--fast"'],
  ])('%j is refused: %s', (argv, message) => {
    expect(() => parseExperimentArgs(argv, ROOT)).toThrow(message);
  });

  it('missing corpora: one error line naming the folder, exit 2, no page written', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'palette-experiments-'));
    try {
      let err = '';
      const out = join(dir, 'page.md');
      const code = await experimentsMain(['--data', join(dir, 'none'), '--out', out], ROOT, { stderr: { write: (t: string) => (err += t) } });
      expect(code).toBe(2);
      expect(err).toBe(
        `experiments: error: ${join(dir, 'none')}: the shared corpora are not there (expected wmt21-news-en-de, summeval, ` +
          'joshua-bn-en, moses-mert)\n',
      );
      expect(existsSync(out)).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(!haveShared(...EXPERIMENT_DATA))('scripts/experiments.ts on a slice of ../shared/data', () => {
  it('runs every experiment; its correlations equal ones recomputed from the files and the Metric API', async () => {
    const report = await runExperiments({
      repoRoot: ROOT,
      dataRoot: DATA,
      resamples: 20,
      seed: 7,
      quick: true,
      command: 'test',
      slice: SLICE,
      variants: VARIANTS,
      orangeMetrics: ['bleus4', 'rouge-s4', 'wer', 'paraeval', 'impact'],
      bleuWcOrders: { maxWord: 3, maxChar: 8 },
    });

    // WMT21 en-de: MQM on the rated segments of the MQM systems among the slice's systems.
    const wmt = report.wmt!;
    const data = loadWmtEnDe(DATA, SLICE);
    const mqmNames = wmt.facts.mqmSystems;
    expect(mqmNames).toEqual(['Facebook-AI', 'HuaweiTSC', 'NVIDIA-NeMo', 'Online-W']);
    const mqm = tsv(join(WMT, 'human', 'mqm_seg_scores.tsv'));
    const rated = [...new Set(mqm.filter((r) => r.mqm_avg_score !== '' && Number(r.seg_id) <= SLICE.segments).map((r) => Number(r.seg_id)))].sort((a, b) => a - b);
    expect(wmt.facts.mqmSegments).toBe(rated.length);
    const mqmOf = (system: string, seg: number): number => Number(mqm.find((r) => r.system === system && Number(r.seg_id) === seg)!.mqm_avg_score);
    const refs = ['A', 'C'].map((r) => lines(join(WMT, `ref.${r}.de`), SLICE.segments));
    const hyps = (s: string): string[] => lines(join(WMT, 'systems', `${s}.de`), SLICE.segments);

    const bleu = new Bleu({ maxNgramOrder: 4, tokenize: '13a' });
    const segMetric: number[] = [];
    const segHuman: number[] = [];
    const sysMetric: number[] = [];
    const sysHuman: number[] = [];
    for (const s of mqmNames) {
      const h = hyps(s);
      const sentences = sentenceScores(bleu, h, refs);
      const pick = (xs: readonly string[]): string[] => rated.map((seg) => xs[seg - 1]);
      sysMetric.push(corpusScore(bleu, pick(h), refs.map(pick)).score);
      const humans = rated.map((seg) => mqmOf(s, seg));
      sysHuman.push(humans.reduce((a, b) => a + b, 0) / humans.length);
      rated.forEach((seg, i) => {
        segMetric.push(sentences[seg - 1].score);
        segHuman.push(humans[i]);
      });
    }
    const table = (id: string) => wmt.result.tables.find((t) => t.id === id)!;
    const row = (id: string, metric: string, set: string) => table(id).rows.find((r) => r.metric === metric && r.set === set)!;
    expect(row('wmt-mqm-segment', 'BLEU4', 'Case').estimates[0].value).toBeCloseTo(pearson(Float64Array.from(segMetric), Float64Array.from(segHuman)), 12);
    expect(row('wmt-mqm-system', 'BLEU4', 'Case').estimates[0].value).toBeCloseTo(pearson(Float64Array.from(sysMetric), Float64Array.from(sysHuman)), 12);
    expect(row('wmt-mqm-system', 'BLEU4', 'Case').estimates[0].resamples).toBe(20);

    // DA: the slice's systems against the source-based DA z of the file; WER is correlated as it is (negative).
    const da = tsv(join(WMT, 'human', 'da_sys_scores.srcbased.tsv'));
    const wer = new Wer({ tokenize: '13a', lowercase: true });
    const daSystems = data.da.systems.map((k) => data.all.systems[k]);
    expect(daSystems).toHaveLength(SLICE.systems);
    const werScores = Float64Array.from(daSystems, (s) => corpusScore(wer, hyps(s), refs).score);
    const daZ = Float64Array.from(daSystems, (s) => Number(da.find((r) => r.system === s)!.da_z));
    expect(row('wmt-da-system', 'WER', 'NoCase').estimates[1].value).toBeCloseTo(spearman(werScores, daZ), 12);

    // Jackknifing: the mean of the leave-one-out corpus scores, as src/meta/jackknife.ts computes it.
    const jk = report.jackknife!.tables.find((t) => t.table.id === 'jk-wmt-da-system')!;
    expect(jk.pairedWith).toBe('wmt-da-system');
    const jkBleu = Float64Array.from(daSystems, (s) => jackknifeScore(bleu, hyps(s), refs).mean);
    expect(jk.table.rows.find((r) => r.metric === 'BLEU4')!.estimates[0].value).toBeCloseTo(pearson(jkBleu, daZ), 12);

    // SummEval: relevance, system level, Stem set (texts stemmed before the metric).
    const summeval = report.summeval!;
    expect(summeval.facts).toMatchObject({ systems: 10, documents: 40, references: 2 });
    const human = tsv(join(SUMMEVAL, 'human_scores.tsv'));
    const docs = lines(join(SUMMEVAL, 'doc_ids.txt'), SLICE.segments);
    const systems = [...new Set(human.map((r) => r.system))].slice(0, SLICE.systems);
    const sumRefs = [0, 1].map((j) => lines(join(SUMMEVAL, 'refs', `ref.${j}.txt`), SLICE.segments).map(stemText));
    const rouge = VARIANTS.find((v) => v.name === 'ROUGE-L')!.create('Stem');
    const rougeScores = Float64Array.from(systems, (s) => corpusScore(rouge, lines(join(SUMMEVAL, 'systems', `${s}.txt`), SLICE.segments).map(stemText), sumRefs).score);
    const relevance = Float64Array.from(systems, (s) => {
      const values = docs.map((d) => Number(human.find((r) => r.system === s && r.doc_id === d)!.relevance));
      return values.reduce((a, b) => a + b, 0) / values.length;
    });
    const rel = summeval.result.tables.find((t) => t.id === 'summeval-relevance-system')!;
    expect(rel.rows.find((r) => r.metric === 'ROUGE-L' && r.set === 'Stem')!.estimates[0].value).toBeCloseTo(pearson(rougeScores, relevance), 12);
    expect(rel.rows.map((r) => r.metric)).toEqual([...VARIANTS, ...VARIANTS, ...VARIANTS].map((v) => v.name).concat(['ParaEval-P', 'ParaEval-R', 'IMPACT', 'NP-chunk']));

    // ORANGE: Joshua ranked (4 references), Moses refused (1 reference).
    const orange = report.orange!.results;
    const joshua = orange.find((o) => o.input.label === 'Joshua bn-en output.gold')!;
    expect(joshua.sentences).toBe(100);
    expect(joshua.rows!.map((r) => r.variant.name)).toEqual(['BLEUS4', 'ROUGE-S4', 'WER', 'ParaEval', 'IMPACT']);
    // Every reference first is the best ORANGE can be, a random ranking the expected level of no information.
    expect(joshua.perfect!).toBeLessThan(Math.min(...joshua.rows!.map((r) => r.orange)));
    expect(joshua.chance!).toBeGreaterThan(joshua.perfect!);
    for (const r of joshua.rows!) {
      expect(r.orange).toBeGreaterThan(0);
      expect(r.orange).toBeLessThan(1.5);
      expect(r.ci!.lower).toBeLessThanOrEqual(r.ci!.upper);
    }
    expect(orange.find((o) => o.input.label === 'Moses MERT nbest.1')!.refused).toMatch(/at least 2 references/);

    // BLEUw/BLEUc: one row per word order, no analogy rule for N = 1.
    const study = report.bleuWc!.result;
    expect(study.rows.map((r) => r.n)).toEqual([1, 2, 3]);
    expect(study.rows[0].analogy).toBeNull();
    expect(study.segments).toBe(SLICE.systems * SLICE.segments);
    for (const r of study.rows) expect(r.bestPearson.m).toBeGreaterThanOrEqual(1);

    const page = renderReport(report);
    for (const heading of ['### 1.1 WMT21', '### 1.2 SummEval', '### 1.3 Beyond surface', '### 1.5 Jackknifing', '## 2. ORANGE', '## 3. BLEU in words', '## 4. Versions']) {
      expect(page).toContain(heading);
    }
    expect(page).not.toMatch(/NaN|undefined/);
  }, 120_000);
});
