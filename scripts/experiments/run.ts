/**
 * Runs the experiments (all, or some on a slice of the data, as the tests do) and returns what
 * ./render.ts turns into docs/EXPERIMENTS.md.
 */
import { basename } from 'node:path';
import { bleuWc, DEFAULT_BLEU_WC_ORDERS, type BleuWcOrders } from './bleu-wc-section.js';
import { exampleParaphraseTable, summEvalCorrelations, wmtCorrelations } from './correlation-sections.js';
import { capitalizedShare, loadSummEval, loadWmtEnDe, SUMMEVAL_DIMENSIONS, type Slice } from './data.js';
import { SEED_METRICS, type MetricVariant } from './metric-variants.js';
import { jackknifeTable, jackknifeVariant, type JackknifeTable } from './jackknife-section.js';
import { setTexts, type CorrelationCase } from './correlations.js';
import { ORANGE_EXTRA_METRICS, orangeExtraSettings, ORANGE_METRICS, orangeInputs, orangeOf, type OrangeResult } from './orange-section.js';
import type { ExperimentReport } from './render.js';

/** The experiments by name. */
export const EXPERIMENTS = ['wmt', 'summeval', 'jackknife', 'orange', 'bleu-wc'] as const;

/** One of {@link EXPERIMENTS}. */
export type ExperimentName = (typeof EXPERIMENTS)[number];

/** What to run, on what. */
export interface RunOptions {
  readonly repoRoot: string;
  /** ../shared/data. */
  readonly dataRoot: string;
  readonly resamples: number;
  readonly seed: number;
  readonly quick: boolean;
  /** The command line the page says produced it. */
  readonly command: string;
  /** @default every experiment */
  readonly experiments?: readonly ExperimentName[];
  /** Slice of WMT21 en-de and SummEval (tests). */
  readonly slice?: Slice;
  /** Metric list of the correlation tables. @default seed 000's list */
  readonly variants?: readonly MetricVariant[];
  /** Whether SummEval and ORANGE get ParaEval, IMPACT and the NP-chunk metric. @default true */
  readonly extras?: boolean;
  /**
   * ORANGE variants (`palette orange -m` names; paraeval uses the example table). @default seed 002's list, then
   * ParaEval, IMPACT and NP-chunk unless `extras` is false
   */
  readonly orangeMetrics?: readonly string[];
  /** How many of the n-best inputs to run (Joshua first). @default all */
  readonly orangeInputs?: number;
  /** Orders of the BLEUw/BLEUc study. */
  readonly bleuWcOrders?: BleuWcOrders;
  /** Called when a part starts, for a progress line. */
  readonly log?: (message: string) => void;
}

/** Runs the chosen experiments. @throws InputError for unreadable or malformed data. */
export async function runExperiments(options: RunOptions): Promise<ExperimentReport> {
  const t0 = performance.now();
  const chosen = new Set(options.experiments ?? EXPERIMENTS);
  const log = options.log ?? (() => {});
  const bootstrap = { resamples: options.resamples, seed: options.seed };
  const variants = options.variants ?? SEED_METRICS;
  let wmt: ExperimentReport['wmt'];
  let summeval: ExperimentReport['summeval'];
  let orange: ExperimentReport['orange'];
  let bleu: ExperimentReport['bleuWc'];
  let jackknife: ExperimentReport['jackknife'];

  const needsWmt = chosen.has('wmt') || chosen.has('bleu-wc') || chosen.has('jackknife');
  const wmtData = needsWmt ? loadWmtEnDe(options.dataRoot, options.slice) : undefined;
  const summData = chosen.has('summeval') || chosen.has('jackknife') ? loadSummEval(options.dataRoot, options.slice) : undefined;
  if (chosen.has('wmt') && wmtData !== undefined) {
    log('WMT21 en-de correlations');
    const result = wmtCorrelations(wmtData, bootstrap, variants);
    wmt = {
      facts: {
        references: wmtData.all.referenceNames,
        segments: wmtData.all.references[0].length,
        mqmSystems: wmtData.mqm.systems.map((s) => wmtData.all.systems[s]),
        mqmSegments: wmtData.mqm.segments.length,
        mqmLeftOut: wmtData.mqm.leftOut,
        daSystems: wmtData.da.systems.length,
        daLeftOut: wmtData.da.leftOut,
      },
      result,
    };
  }
  if (chosen.has('summeval') && summData !== undefined) {
    log('SummEval correlations');
    const data = summData;
    const table = exampleParaphraseTable(options.repoRoot);
    const result = summEvalCorrelations(data, bootstrap, options.extras === false ? undefined : { paraphraseTable: table }, variants);
    summeval = {
      facts: {
        systems: data.systems.length,
        documents: data.documents.length,
        references: data.references.length,
        capitalizedReferences: capitalizedShare(data.references.flat()),
        capitalizedSystems: data.outputs.map(capitalizedShare),
        paraphraseTable: options.extras === false ? undefined : `samples/paraphrase/${basename(table)}`,
      },
      result,
    };
  }
  if (chosen.has('jackknife') && wmtData !== undefined && summData !== undefined) {
    log('Jackknifing');
    const t = performance.now();
    const tables: JackknifeTable[] = [];
    const wmtSystems = [...new Set([...wmtData.mqm.systems, ...wmtData.da.systems])];
    const wmtTexts = setTexts(wmtData.all, 'Case');
    const wmtScored = variants.map((v) => jackknifeVariant(v, wmtTexts, wmtSystems));
    const mqm: CorrelationCase = { systems: wmtData.mqm.systems, segments: wmtData.mqm.segments, human: { level: 'segment', values: wmtData.mqm.score } };
    const allSegments = Array.from({ length: wmtData.all.references[0].length }, (_, i) => i);
    const da: CorrelationCase = { systems: wmtData.da.systems, segments: allSegments, human: { level: 'system', values: wmtData.da.z } };
    tables.push(jackknifeTable('jk-wmt-mqm-system', 'WMT21 en-de, MQM, system level, jackknifed', 'wmt-mqm-system', wmtScored, mqm, bootstrap));
    tables.push(jackknifeTable('jk-wmt-da-system', 'WMT21 en-de, source-based DA, system level, jackknifed', 'wmt-da-system', wmtScored, da, bootstrap));
    const summTexts = setTexts(summData, 'Stem');
    const summScored = variants.map((v) => jackknifeVariant(v, summTexts));
    const systems = summData.systems.map((_, k) => k);
    const documents = summData.documents.map((_, i) => i);
    for (const d of SUMMEVAL_DIMENSIONS) {
      const c: CorrelationCase = { systems, segments: documents, human: { level: 'segment', values: summData.human[d] } };
      tables.push(jackknifeTable(`jk-summeval-${d}-system`, `SummEval, ${d}, system level, jackknifed`, `summeval-${d}-system`, summScored, c, bootstrap));
    }
    const signatures = new Map<string, string>();
    for (const s of wmtScored) signatures.set(`${s.variant.name} (${s.set}, WMT21 en-de)`, s.signature);
    for (const s of summScored) signatures.set(`${s.variant.name} (${s.set}, SummEval)`, s.signature);
    jackknife = { tables, signatures, ms: performance.now() - t };
  }
  if (chosen.has('orange')) {
    log('ORANGE');
    const t = performance.now();
    const results: OrangeResult[] = [];
    const metrics = options.orangeMetrics ?? [...ORANGE_METRICS, ...(options.extras === false ? [] : ORANGE_EXTRA_METRICS)];
    const settings = orangeExtraSettings(exampleParaphraseTable(options.repoRoot));
    for (const input of orangeInputs(options.dataRoot).slice(0, options.orangeInputs)) {
      results.push(await orangeOf(input, bootstrap, metrics, settings));
    }
    orange = { results, ms: performance.now() - t };
  }
  if (chosen.has('bleu-wc') && wmtData !== undefined) {
    log('BLEUw vs BLEUc');
    bleu = {
      references: wmtData.all.referenceNames,
      systems: wmtData.all.systems.length,
      result: bleuWc(wmtData.all, options.bleuWcOrders ?? DEFAULT_BLEU_WC_ORDERS),
    };
  }
  return {
    resamples: options.resamples,
    seed: options.seed,
    quick: options.quick,
    command: options.command,
    wmt,
    summeval,
    orange,
    bleuWc: bleu,
    jackknife,
    totalMs: performance.now() - t0,
  };
}
