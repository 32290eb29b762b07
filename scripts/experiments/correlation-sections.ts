/**
 * Experiment 1: correlations of seed 000's metric list with human judgments on WMT21 en-de (MQM, source-based DA)
 * and SummEval (four dimensions), plus ParaEval, IMPACT and the NP-chunk metric beside ROUGE-L on SummEval
 * (issue 7). Each function returns its tables with the facts the page states about them.
 */
import { join } from 'node:path';
import type { CorrelationMethod } from '../../src/meta/correlation-bootstrap.js';
import { lowerIsBetterMetric } from '../../src/metrics/catalog.js';
import { Impact } from '../../src/metrics/impact/impact.js';
import { NpChunk } from '../../src/metrics/npchunk/npchunk.js';
import { ParaEval } from '../../src/metrics/paraeval/paraeval.js';
import { loadParaphraseTable, type ParaphraseTable } from '../../src/text/paraphrase/index.js';
import {
  scoreVariant,
  segmentLevel,
  setTexts,
  systemLevel,
  type BootstrapSettings,
  type CorrelationCase,
  type CorrelationRow,
  type ScoredVariant,
} from './correlations.js';
import { SUMMEVAL_DIMENSIONS, type SummEval, type SummEvalDimension, type SystemOutputs, type WmtEnDe } from './data.js';
import { SEED_METRICS, type MetricVariant, type TextSet } from './metric-variants.js';

/** Methods at system level (seed 000's Table 1). */
export const SYSTEM_METHODS: readonly CorrelationMethod[] = ['pearson', 'spearman'];
/** Methods at segment level. */
export const SEGMENT_METHODS: readonly CorrelationMethod[] = ['pearson', 'spearman', 'kendall'];

/** A computed table of correlation rows. */
export interface CorrelationTable {
  /** Short id used in headings (`wmt-mqm-system`). */
  readonly id: string;
  readonly title: string;
  readonly level: 'system' | 'segment';
  readonly methods: readonly CorrelationMethod[];
  readonly rows: readonly CorrelationRow[];
  /** Systems correlated. */
  readonly systems: number;
  /** Resampled segments (items). */
  readonly segments: number;
  /** Wall time of the correlations (metric scoring is reported per section). */
  readonly ms: number;
}

/** Signatures of the metrics a section ran, by `name (set)`. */
export type Signatures = Map<string, string>;

/** Scores every variant on every set (statistics once per metric and set). */
export function scoreAll(
  corpus: SystemOutputs,
  sets: readonly TextSet[],
  variants: readonly MetricVariant[],
  systems?: readonly number[],
): ScoredVariant[] {
  const out: ScoredVariant[] = [];
  for (const set of sets) {
    const texts = setTexts(corpus, set);
    for (const v of variants) out.push(scoreVariant(v, texts, systems));
  }
  return out;
}

/** Records the signatures of scored variants. */
export function addSignatures(into: Signatures, scored: readonly ScoredVariant[]): void {
  for (const s of scored) into.set(`${s.variant.name} (${s.set})`, s.signature);
}

/** One correlation table over scored variants. */
export function correlationTableOf(
  id: string,
  title: string,
  level: 'system' | 'segment',
  scored: readonly ScoredVariant[],
  c: CorrelationCase,
  bootstrap: BootstrapSettings,
  setLabel: (s: ScoredVariant) => string = (s) => s.set,
): CorrelationTable {
  const t0 = performance.now();
  const methods = level === 'system' ? SYSTEM_METHODS : SEGMENT_METHODS;
  const rows = scored.map(
    (s): CorrelationRow => ({
      metric: s.variant.name,
      set: setLabel(s),
      lowerIsBetter: s.variant.lowerIsBetter,
      estimates: level === 'system' ? systemLevel(s, c, methods, bootstrap) : segmentLevel(s, c, methods, bootstrap),
    }),
  );
  return { id, title, level, methods, rows, systems: c.systems.length, segments: c.segments.length, ms: performance.now() - t0 };
}

/** The WMT21 en-de tables: MQM system and segment level, DA system level. */
export interface WmtTables {
  readonly tables: readonly CorrelationTable[];
  readonly signatures: Signatures;
  /** Wall time of the metric scoring. */
  readonly scoringMs: number;
}

/** WMT21 en-de tables, Case and NoCase sets (German: no Stem set). */
export function wmtCorrelations(data: WmtEnDe, bootstrap: BootstrapSettings, variants: readonly MetricVariant[] = SEED_METRICS): WmtTables {
  const t0 = performance.now();
  const wanted = [...new Set([...data.mqm.systems, ...data.da.systems])];
  const scored = scoreAll(data.all, ['Case', 'NoCase'], variants, wanted);
  const scoringMs = performance.now() - t0;
  const signatures: Signatures = new Map();
  addSignatures(signatures, scored);
  const mqm: CorrelationCase = {
    systems: data.mqm.systems,
    segments: data.mqm.segments,
    human: { level: 'segment', values: data.mqm.score },
  };
  const allSegments = Array.from({ length: data.all.references[0].length }, (_, i) => i);
  const da: CorrelationCase = { systems: data.da.systems, segments: allSegments, human: { level: 'system', values: data.da.z } };
  return {
    tables: [
      correlationTableOf('wmt-mqm-system', 'WMT21 en-de, MQM, system level', 'system', scored, mqm, bootstrap),
      correlationTableOf('wmt-mqm-segment', 'WMT21 en-de, MQM, segment level', 'segment', scored, mqm, bootstrap),
      correlationTableOf('wmt-da-system', 'WMT21 en-de, source-based DA (z), system level', 'system', scored, da, bootstrap),
    ],
    signatures,
    scoringMs,
  };
}

/** Settings of the beyond-surface metrics on SummEval. */
export interface ExtraMetricSettings {
  /** Paraphrase table file for ParaEval. */
  readonly paraphraseTable: string;
  /** Chunker of the NP-chunk metric. @default 'compromise' */
  readonly chunker?: string;
}

/** The example paraphrase table of the repository. */
export function exampleParaphraseTable(repoRoot: string): string {
  return join(repoRoot, 'samples', 'paraphrase', 'en-para.tsv');
}

/**
 * ParaEval (precision and recall; table phrases and text lowercased and 13a-tokenized), IMPACT and the NP-chunk
 * metric (the seed's parameters; words as they are) as metric variants. They take no text set: the label says how
 * each sees the text.
 */
export function extraVariants(settings: ExtraMetricSettings): { variants: MetricVariant[]; label: Map<string, string> } {
  let table: ParaphraseTable | undefined;
  const loadTable = (): ParaphraseTable => (table ??= loadParaphraseTable(settings.paraphraseTable, { tokenize: '13a', lowercase: true }));
  const variants: MetricVariant[] = [
    { name: 'ParaEval-P', lowerIsBetter: lowerIsBetterMetric('paraeval'), create: () => new ParaEval({ table: loadTable(), score: 'precision' }) },
    { name: 'ParaEval-R', lowerIsBetter: lowerIsBetterMetric('paraeval'), create: () => new ParaEval({ table: loadTable(), score: 'recall' }) },
    { name: 'IMPACT', lowerIsBetter: lowerIsBetterMetric('impact'), create: () => new Impact() },
    { name: 'NP-chunk', lowerIsBetter: lowerIsBetterMetric('npchunk'), create: () => new NpChunk({ chunker: settings.chunker }) },
  ];
  const label = new Map([
    ['ParaEval-P', 'table lc'],
    ['ParaEval-R', 'table lc'],
    ['IMPACT', 'Case'],
    ['NP-chunk', 'Case'],
  ]);
  return { variants, label };
}

/** The SummEval tables: per dimension, system and summary level. */
export interface SummEvalTables {
  readonly tables: readonly CorrelationTable[];
  readonly signatures: Signatures;
  /** Wall time of the seed-list scoring and of the extra metrics' scoring. */
  readonly scoringMs: number;
  readonly extraScoringMs: number;
}

/**
 * SummEval tables: seed 000's list on Case, NoCase and Stem, then ParaEval, IMPACT and the NP-chunk metric, against
 * each dimension; all 11 references; system level over the systems, summary level over every (system, document).
 * Resampling units are the documents.
 */
export function summEvalCorrelations(
  data: SummEval,
  bootstrap: BootstrapSettings,
  extras: ExtraMetricSettings | undefined,
  variants: readonly MetricVariant[] = SEED_METRICS,
  dimensions: readonly SummEvalDimension[] = SUMMEVAL_DIMENSIONS,
): SummEvalTables {
  const t0 = performance.now();
  const scored = scoreAll(data, ['Case', 'NoCase', 'Stem'], variants);
  const scoringMs = performance.now() - t0;
  const t1 = performance.now();
  let label = new Map<string, string>();
  if (extras !== undefined) {
    const x = extraVariants(extras);
    label = x.label;
    scored.push(...scoreAll(data, ['Case'], x.variants));
  }
  const extraScoringMs = performance.now() - t1;
  const signatures: Signatures = new Map();
  addSignatures(signatures, scored);
  const setLabel = (s: ScoredVariant): string => label.get(s.variant.name) ?? s.set;
  const systems = data.systems.map((_, s) => s);
  const segments = data.documents.map((_, i) => i);
  const tables: CorrelationTable[] = [];
  for (const d of dimensions) {
    const c: CorrelationCase = { systems, segments, human: { level: 'segment', values: data.human[d] } };
    tables.push(correlationTableOf(`summeval-${d}-system`, `SummEval, ${d}, system level`, 'system', scored, c, bootstrap, setLabel));
    tables.push(correlationTableOf(`summeval-${d}-summary`, `SummEval, ${d}, summary level`, 'segment', scored, c, bootstrap, setLabel));
  }
  return { tables, signatures, scoringMs, extraScoringMs };
}
