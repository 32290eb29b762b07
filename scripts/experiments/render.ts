/**
 * docs/EXPERIMENTS.md from the computed results: per table a paragraph saying what was computed on which data
 * with which references and seeds, the table, its run time, and how it compares with the seed paper where the two
 * are comparable. Comparisons are read off the numbers of this run (never typed in), so the page stays true when
 * it is regenerated.
 */
import { VERSION } from '../../src/version.js';
import type { CorrelationEstimate } from '../../src/meta/correlation-bootstrap.js';
import type { BleuWcResult } from './bleu-wc-section.js';
import type { CorrelationTable, Signatures, SummEvalTables, WmtTables } from './correlation-sections.js';
import { correlationTable, estimateCell, fixed, oriented, seconds, table } from './markdown.js';
import type { JackknifeTable } from './jackknife-section.js';
import type { OrangeResult } from './orange-section.js';

/** Facts about the WMT21 en-de data the page states. */
export interface WmtFacts {
  readonly references: readonly string[];
  readonly segments: number;
  readonly mqmSystems: readonly string[];
  readonly mqmSegments: number;
  readonly mqmLeftOut: readonly string[];
  readonly daSystems: number;
  readonly daLeftOut: readonly string[];
}

/** Facts about SummEval the page states. */
export interface SummEvalFacts {
  readonly systems: number;
  readonly documents: number;
  readonly references: number;
  /** Share of capitalised words in the references, and in each system's summaries. */
  readonly capitalizedReferences: number;
  readonly capitalizedSystems: readonly number[];
  /** The paraphrase table's file name (relative) and size. */
  readonly paraphraseTable?: string;
}

/** Everything one run computed. */
export interface ExperimentReport {
  readonly resamples: number;
  readonly seed: number;
  readonly quick: boolean;
  readonly command: string;
  readonly wmt?: { readonly facts: WmtFacts; readonly result: WmtTables };
  readonly summeval?: { readonly facts: SummEvalFacts; readonly result: SummEvalTables };
  readonly orange?: { readonly results: readonly OrangeResult[]; readonly ms: number };
  readonly bleuWc?: { readonly references: readonly string[]; readonly systems: number; readonly result: BleuWcResult };
  readonly jackknife?: { readonly tables: readonly JackknifeTable[]; readonly signatures: Signatures; readonly ms: number };
  readonly totalMs: number;
}

function tableById(tables: readonly CorrelationTable[], id: string): CorrelationTable | undefined {
  return tables.find((t) => t.id === id);
}

/** The row of the best oriented value of method `m` (index). */
function best(t: CorrelationTable, m: number): { name: string; e: CorrelationEstimate } {
  let out: { name: string; e: CorrelationEstimate } | undefined;
  for (const r of t.rows) {
    const e = oriented(r.estimates[m], r.lowerIsBetter);
    if (Number.isFinite(e.value) && (out === undefined || e.value > out.e.value)) {
      out = { name: `${r.lowerIsBetter ? '−' : ''}${r.metric} (${r.set})`, e };
    }
  }
  return out ?? { name: 'none', e: { method: 'pearson', value: NaN, low: NaN, high: NaN, resamples: 0, undefinedResamples: 0 } };
}

function rowEstimate(t: CorrelationTable, metric: string, set: string, m: number): CorrelationEstimate | undefined {
  const r = t.rows.find((x) => x.metric === metric && x.set === set);
  return r === undefined ? undefined : oriented(r.estimates[m], r.lowerIsBetter);
}

function short(e: CorrelationEstimate | undefined): string {
  return e === undefined ? 'n/a' : estimateCell(e);
}

/** How many rows' intervals contain the best value (the paper's "statistically equivalent" reading, loosely). */
function overlapping(t: CorrelationTable, m: number): number {
  const b = best(t, m).e.value;
  return t.rows.filter((r) => {
    const e = oriented(r.estimates[m], r.lowerIsBetter);
    return e.high >= b;
  }).length;
}

const METHOD_NAMES: Record<string, string> = { pearson: 'Pearson', spearman: 'Spearman', kendall: 'Kendall', wmt: 'WMT τ' };

function tableBlock(t: CorrelationTable, about: string, unit: string): string {
  const what =
    t.level === 'system'
      ? `${t.systems} systems; CIs resample the ${t.segments} ${unit}`
      : `${t.systems * t.segments} (system, ${unit.replace(/s$/, '')}) pairs of ${t.systems} systems × ${t.segments} ${unit}, pooled; CIs resample ${unit}`;
  const b = t.methods.map((m, k) => `${METHOD_NAMES[m]} ${best(t, k).name} ${fixed(best(t, k).e.value)}`).join('; ');
  return [
    `#### ${t.title}`,
    '',
    `${about}${about === '' ? '' : ' '}${what}. Best: ${b}. Rows whose upper Pearson CI bound reaches the best Pearson ` +
      `value: ${overlapping(t, 0)} of ${t.rows.length}.`,
    '',
    correlationTable(t.rows, t.methods),
    '',
    `Run time (correlations and ${t.rows[0]?.estimates[0]?.resamples ?? 0} resamples): ${seconds(t.ms)}.`,
    '',
  ].join('\n');
}

function wmtSection(facts: WmtFacts, r: WmtTables, resamples: number, seed: number): string {
  const out: string[] = [
    '### 1.1 WMT21 news, English→German',
    '',
    `Data: ../shared/data/wmt21-news-en-de (newstest2021 en-de, ${facts.segments} segments). Every metric scores ` +
      `against all ${facts.references.length} references (${facts.references.join(', ')}) at once, each in its own ` +
      `multi-reference way. Text sets: Case and NoCase (German, so no Porter Stem set). MQM: the ${facts.mqmSystems.length} ` +
      `rated systems whose output is in the data (${facts.mqmSystems.join(', ')}); left out as having no text here or being ` +
      `references: ${facts.mqmLeftOut.join(', ')}. The MQM subset is the ${facts.mqmSegments} segments rated for all of ` +
      `them (MQM = minus the weighted error count averaged over raters, higher is better); at system level both the metric (corpus score ` +
      `from summed statistics) and MQM (mean) are taken on these segments. DA: WMT21's source-based DA z-means of the ` +
      `${facts.daSystems} systems with text (left out: ${facts.daLeftOut.join(', ')}, human translations without text ` +
      `here); the metric side is the corpus score over all ${facts.segments} segments. ${resamples} bootstrap resamples, ` +
      `numpy default_rng seed ${seed}, 95% percentile intervals. WER and PER appear as −WER and −PER (the correlation ` +
      'of the negated error rate) so that higher is better in every row; the best value of each column is bold.',
    '',
    `Metric scoring (all systems, both sets): ${seconds(r.scoringMs)}.`,
    '',
  ];
  const about: Record<string, string> = {
    'wmt-mqm-system': 'MQM system means against corpus scores:',
    'wmt-mqm-segment': 'MQM segment scores against sentence scores (BLEU with effective order, as sacreBLEU\'s sentence BLEU):',
    'wmt-da-system': 'Source-based DA z against corpus scores over the whole test set:',
  };
  for (const t of r.tables) out.push(tableBlock(t, about[t.id] ?? '', 'segments'));
  return out.join('\n');
}

function summEvalSection(facts: SummEvalFacts, r: SummEvalTables, resamples: number, seed: number): string {
  const out: string[] = [
    '### 1.2 SummEval (CNN/DailyMail summaries)',
    '',
    `Data: ../shared/data/summeval, ${facts.systems} systems × ${facts.documents} documents, all ${facts.references} ` +
      'references per document (the original highlights and 10 crowd-written summaries), each metric combining them in its ' +
      'own way (BLEU: clipped counts over all references and the closest length; NIST: mteval; WER/PER/GTM: the best ' +
      'reference; ROUGE: Lin & Och\'s maximum recall and maximum precision, no jackknifing). Human scores: the mean of ' +
      'three expert ratings (1–5) per summary on coherence, consistency, fluency and relevance. System level: ' +
      `${facts.systems} systems, the metric\'s corpus score against the mean human score; summary level: all ` +
      `${facts.systems * facts.documents} summaries pooled. Bootstrap: ${resamples} resamples of the ${facts.documents} ` +
      `documents (every system\'s summary of a drawn document comes with it), numpy default_rng seed ${seed}, 95% ` +
      'percentile intervals. Text sets Case, NoCase and Stem (lowercased, 13a-tokenized, Porter-stemmed for every ' +
      'metric, as seed 000 built its Stem set). The last rows are ParaEval (precision, and recall summed over the ' +
      `references) with the repository\'s hand-written example paraphrase table ${facts.paraphraseTable ?? ''} (a tiny ` +
      'table of common English paraphrases written for the tests, not a real pivot-extracted table, so ParaEval here is ' +
      'close to its unigram tier), IMPACT and the NP-chunk metric (seed 003 parameters α = 0.1, β = 1.1, δ = 0.3, ' +
      'compromise chunker), all sentence-level methods whose corpus score is the mean of the summary scores. Case ' +
      `matters here: ${fixed(facts.capitalizedReferences * 100, 1)}% of the reference words are capitalised, against ` +
      `${fixed(Math.min(...facts.capitalizedSystems) * 100, 1)}–${fixed(Math.max(...facts.capitalizedSystems) * 100, 1)}% ` +
      `in the systems' summaries (${facts.capitalizedSystems.filter((x) => x < facts.capitalizedReferences / 2).length} of ` +
      `${facts.systems} systems below half the references' share: they write mostly lower case).`,
    '',
    `Metric scoring: seed list on three sets ${seconds(r.scoringMs)}; ParaEval, IMPACT, NP-chunk ${seconds(r.extraScoringMs)}.`,
    '',
  ];
  for (const t of r.tables) out.push(tableBlock(t, '', 'documents'));
  return out.join('\n');
}

/** Issue 7's comparison: ParaEval, IMPACT, NP-chunk beside ROUGE-L, Pearson with CI, per dimension and level. */
function beyondSurfaceSection(r: SummEvalTables): string {
  const names: [string, string][] = [
    ['ROUGE-L', 'Case'],
    ['ROUGE-L', 'NoCase'],
    ['ROUGE-L', 'Stem'],
    ['ParaEval-P', 'table lc'],
    ['ParaEval-R', 'table lc'],
    ['IMPACT', 'Case'],
    ['NP-chunk', 'Case'],
  ];
  const dims = ['coherence', 'consistency', 'fluency', 'relevance'];
  const blocks: string[] = [];
  for (const level of ['summary', 'system'] as const) {
    const rows = names.map(([metric, set]) => [
      metric,
      set,
      ...dims.map((d) => {
        const t = tableById(r.tables, `summeval-${d}-${level}`);
        return t === undefined ? 'n/a' : short(rowEstimate(t, metric, set, 0));
      }),
    ]);
    blocks.push(`Pearson r at ${level} level:`, '', table(['Metric', 'Set', ...dims], rows, ['l', 'l', 'r', 'r', 'r', 'r']), '');
  }
  return [
    '### 1.3 Beyond surface matching on SummEval: ParaEval, IMPACT, NP-chunk vs ROUGE-L',
    '',
    'The rows of 1.2 issue 7 asks about, side by side (same data, references, resamples and seed as 1.2).',
    '',
    ...blocks,
  ].join('\n');
}

/** Jackknifed system-level correlations beside the all-references ones of the same case. */
function jackknifeSection(j: NonNullable<ExperimentReport['jackknife']>, report: ExperimentReport): string {
  const all = [...(report.wmt?.result.tables ?? []), ...(report.summeval?.result.tables ?? [])];
  const out: string[] = [
    '### 1.5 Jackknifing over references (seed 000\'s procedure)',
    '',
    'Seed 000 scored with N references by jackknifing: the score against each of the N sets of N − 1 references, ' +
      'averaged. Here every metric of the list is jackknifed the same way (the system score is the mean of the N ' +
      'leave-one-out corpus scores, as src/meta/jackknife.ts\'s jackknifeScore, recomputed on every resample from the ' +
      'leave-one-out statistics rows), on WMT21 en-de (Case, N = 3, the systems of 1.1) and SummEval (Stem, N = 11), system level, beside ' +
      'the scores against all references at once from 1.1 and 1.2 (same resamples and seed).',
    '',
  ];
  for (const { pairedWith, table: t } of j.tables) {
    const paired = all.find((x) => x.id === pairedWith);
    const rows = t.rows.map((r) => {
      const base = paired?.rows.find((x) => x.metric === r.metric && x.set === r.set);
      const cells: string[] = [];
      t.methods.forEach((_, m) => {
        cells.push(base === undefined ? 'n/a' : estimateCell(oriented(base.estimates[m], base.lowerIsBetter)));
        cells.push(estimateCell(oriented(r.estimates[m], r.lowerIsBetter)));
      });
      return [r.lowerIsBetter ? `−${r.metric}` : r.metric, r.set, ...cells];
    });
    const header = ['Metric', 'Set', 'Pearson, all refs', 'Pearson, jackknife', 'Spearman, all refs', 'Spearman, jackknife'];
    out.push(
      `#### ${t.title}`,
      '',
      table(header, rows, ['l', 'l', 'r', 'r', 'r', 'r']),
      '',
      `Run time (correlations and ${t.rows[0]?.estimates[0]?.resamples ?? 0} resamples): ${seconds(t.ms)}.`,
      '',
    );
  }
  out.push(`Run time of the section, leave-one-out scoring included: ${seconds(j.ms)}.`, '');
  return out.join('\n');
}

function orangeSection(o: { results: readonly OrangeResult[]; ms: number }, resamples: number, seed: number): string {
  const ranked = o.results.filter((x) => x.rows !== undefined);
  const refused = o.results.filter((x) => x.refused !== undefined);
  const out: string[] = [
    '## 2. ORANGE on n-best lists (seed 002)',
    '',
    'ORANGE = the mean over source sentences of (average rank of the references among the n-best candidates and the ' +
      'references, each reference scored against the others, each candidate against the same leave-one-out sets and ' +
      'averaged) / (n-best length + 1); lower is better. Computed with `palette orange`\'s library entry point ' +
      `(src/node/orange/evaluate.ts), ${resamples} bootstrap resamples of the sentences, numpy default_rng seed ${seed}, ` +
      '95% percentile interval. BLEUS1–9 (Lin & Och\'s smoothed sentence BLEU) stand for BLEU1/4/12 as in the seed; ' +
      'GTM (exponent 1) scores each text against the best reference of its leave-one-out set. The last rows are ' +
      'ParaEval (precision, the example paraphrase table, lowercased), IMPACT and the NP-chunk metric (seed 003 ' +
      'parameters, compromise chunker), scored through their Metric API in the same pass. The lists are lowercased and tokenized already, so Case and NoCase coincide; Stem is not run.',
    '',
  ];
  if (ranked.length > 0) {
    const names = ranked[0].rows!.map((r) => r.variant.name);
    // The best (lowest) ORANGE of each list is bold.
    const mins = ranked.map((x) => Math.min(...x.rows!.map((r) => r.orange)));
    const rows = names.map((name, i) => [
      name,
      ...ranked.map((x, c) => {
        const r = x.rows![i];
        const value = r.orange === mins[c] ? `**${fixed(r.orange, 4)}**` : fixed(r.orange, 4);
        return r.ci === undefined ? value : `${value} [${fixed(r.ci.lower, 4)}, ${fixed(r.ci.upper, 4)}]`;
      }),
    ]);
    out.push(table(['Metric', ...ranked.map((x) => x.input.label)], rows, ['l', ...ranked.map(() => 'r' as const)]), '');
    for (const x of ranked) {
      const bestRow = x.rows!.reduce((a, b) => (b.orange < a.orange ? b : a));
      out.push(
        `- ${x.input.label}: ${x.sentences} sentences, ${x.candidates} candidates, ${x.referencesPerSentence} references per ` +
          `sentence; best ${bestRow.variant.name} ${fixed(bestRow.orange, 4)}; every reference ranked first would give ` +
          `${fixed(x.perfect ?? NaN, 4)}, a random ranking ${fixed(x.chance ?? NaN, 4)} on average; run time ${seconds(x.ms)}.`,
      );
    }
    out.push('');
  }
  if (refused.length > 0) {
    out.push(
      `Not computable: ${refused.map((x) => x.input.label).join(', ')} — the library refuses them: "${refused[0].refused}". ` +
        'These MERT lists have a single reference; ORANGE ranks each reference against the others, so it needs two or more ' +
        `(run time of the attempts: ${seconds(refused.reduce((s, x) => s + x.ms, 0))}).`,
      '',
    );
  }
  out.push(
    'Seed 002 (Lin & Och 2004) reports, on 872 sentences of the 2002 NIST Chinese–English test set with 4 references ' +
      'and 1024-best lists: BLEUS6 best among BLEUS1–9 (statistically equivalent to BLEUS3–5 and 7–9); ROUGE-S4 best ' +
      'overall (19.66%), equivalent to ROUGE-L and ROUGE-W-1.1, significantly better than BLEUS6, NIST, PER and WER; ' +
      'ROUGE-S* and ROUGE-S9 worse than ROUGE-S4; PER the worst. Our lists have at most 10 candidates per sentence, so ' +
      'ORANGE values are on another scale (see the perfect and random levels above). ' +
      (ranked.length > 0 ? ranked.map((x) => `Order on ${x.input.label}: ${orderLine(x)}.`).join(' ') : ''),
    '',
    `Run time of the whole section: ${seconds(o.ms)}.`,
    '',
  );
  return out.join('\n');
}

function orderLine(x: OrangeResult): string {
  return [...x.rows!]
    .sort((a, b) => a.orange - b.orange)
    .map((r) => `${r.variant.name} ${fixed(r.orange, 4)}`)
    .join(' < ');
}

function bleuWcSection(b: NonNullable<ExperimentReport['bleuWc']>): string {
  const r = b.result;
  const rows = r.rows.map((row) => [
    String(row.n),
    `${row.bestPearson.m} (r = ${fixed(row.bestPearson.r)})`,
    `${row.bestKappa.m} (κ = ${fixed(row.bestKappa.kappa)})`,
    row.analogy === null ? (row.n === 1 ? 'n/a (no N−1)' : 'none ≤ max M') : `${row.analogy.m} (${fixed(row.analogy.share * 100, 1)}%)`,
  ]);
  const four = r.rows.find((x) => x.n === 4);
  return [
    '## 3. BLEU in words vs BLEU in characters (seed 004)',
    '',
    `Data: WMT21 en-de, every segment of all ${b.systems} systems (${r.segments} segments), references ` +
      `${b.references.join(', ')}. BLEUwN: sacreBLEU BLEU of maximum order N on 13a tokens; BLEUcM: the same on ` +
      'characters (sacreBLEU\'s `char` tokenizer, spaces not counted); both sentence by sentence with no smoothing and ' +
      'no effective order (the seed leaves BLEU\'s definition untouched), scaled to [0, 1]. For each N: the M whose ' +
      'BLEUcM has the best Pearson r with BLEUwN over all segments, the M with the best Cohen\'s kappa on the seed\'s 10 ' +
      'grades ([0, 0.1[ → 0 … [0.9, 1] → 9), and the smallest M for which at least 90% of the segments satisfy ' +
      `BLEUcM ≤ BLEUw(N−1). Mean hypothesis length: ${fixed(r.meanWords, 2)} 13a tokens, ${fixed(r.meanChars, 2)} non-space ` +
      `characters (${fixed(r.meanChars / r.meanWords, 2)} characters per token).`,
    '',
    table(['N (words)', 'best M by Pearson', 'best M by kappa', 'smallest M by the 90% rule'], rows, ['r', 'r', 'r', 'r']),
    '',
    'Seed 004 (Denoual & Lepage 2005; English, 4 systems, 2,040 sentences, 13 references) finds for N = 4: M = 17 by ' +
      'Pearson, 18 by kappa, 18 by the 90% rule, with 3.84 characters per word in its candidates. ' +
      (four !== undefined
        ? `Here for N = 4: M = ${four.bestPearson.m} by Pearson, ${four.bestKappa.m} by kappa, ` +
          `${four.analogy === null ? 'none' : four.analogy.m} by the 90% rule, on German with ${fixed(r.meanChars / r.meanWords, 2)} ` +
          'non-space characters per 13a token (the seed chose English because word segmentation is undisputed there). ' +
          `The seed's mean M/N by Pearson is 4.14; here it is ${fixed(meanRatio(r), 2)}.`
        : ''),
    '',
    `Signatures: word \`${r.signatures.word}\`; character \`${r.signatures.char}\`. Run time: ${seconds(r.ms)}.`,
    '',
  ].join('\n');
}

/** Mean of M/N over the word orders, M the best by Pearson (the seed's footnote 10). */
function meanRatio(r: BleuWcResult): number {
  return r.rows.reduce((sum, row) => sum + row.bestPearson.m / row.n, 0) / r.rows.length;
}

function seedComparison(report: ExperimentReport): string {
  const lines: string[] = [];
  const s = report.summeval?.result;
  if (s !== undefined) {
    lines.push(
      '- Seed 000 (NIST 2003 Chinese–English, 8 systems, adequacy): ROUGE-S* Pearson rose from 0.85 (Case) to 0.95 ' +
        '(Stem); among the measures favouring consecutive matches WER was the worst (0.48). Here, SummEval at system level:',
    );
    for (const d of ['relevance', 'consistency'] as const) {
      const t = tableById(s.tables, `summeval-${d}-system`);
      if (t === undefined) continue;
      lines.push(
        `  - ${d}: ROUGE-S* ${short(rowEstimate(t, 'ROUGE-S*', 'Case', 0))} (Case) vs ${short(rowEstimate(t, 'ROUGE-S*', 'Stem', 0))} ` +
          `(Stem); −WER (Stem) ${short(rowEstimate(t, 'WER', 'Stem', 0))}; best ${best(t, 0).name} ${fixed(best(t, 0).e.value)}.`,
      );
    }
    const rel = tableById(s.tables, 'summeval-relevance-system');
    const relSeg = tableById(s.tables, 'summeval-relevance-summary');
    if (rel !== undefined && rel.rows.some((r) => r.metric === 'ParaEval-R')) {
      lines.push(
        '- Seed 001 (NIST 2003 Chinese–English system rankings, 1000 bootstrap runs): ParaEval correlated significantly ' +
          'better than BLEU with fluency and adequacy, and its recall better than its precision with adequacy. Here, SummEval relevance at system level (Pearson): ' +
          `ParaEval-P ${short(rowEstimate(rel, 'ParaEval-P', 'table lc', 0))}, ParaEval-R ` +
          `${short(rowEstimate(rel, 'ParaEval-R', 'table lc', 0))}, BLEU4 (NoCase) ${short(rowEstimate(rel, 'BLEU4', 'NoCase', 0))}.`,
      );
    }
    if (relSeg !== undefined && relSeg.rows.some((r) => r.metric === 'NP-chunk')) {
      lines.push(
        '- Seed 003 (NTCIR-7, 12 systems, sentence level): the NP-chunk method had the highest correlations with adequacy ' +
          'and fluency among eight methods, significantly above the others (IMPACT included) for adequacy. Here, SummEval relevance at summary level (Pearson): NP-chunk ' +
          `${short(rowEstimate(relSeg, 'NP-chunk', 'Case', 0))}, IMPACT ${short(rowEstimate(relSeg, 'IMPACT', 'Case', 0))}, ` +
          `ROUGE-L (Case) ${short(rowEstimate(relSeg, 'ROUGE-L', 'Case', 0))}.`,
      );
    }
  }
  const w = report.wmt?.result;
  if (w !== undefined) {
    const seg = tableById(w.tables, 'wmt-mqm-segment');
    const sys = tableById(w.tables, 'wmt-mqm-system');
    if (seg !== undefined) lines.push(`- WMT21 en-de MQM, segment level: best Pearson ${best(seg, 0).name} ${fixed(best(seg, 0).e.value)}.`);
    if (sys !== undefined) {
      lines.push(
        `- WMT21 en-de MQM, system level over ${sys.systems} systems (seed 000 also had 8): e.g. BLEU4 (Case) ` +
          `${short(rowEstimate(sys, 'BLEU4', 'Case', 0))}, ROUGE-S* (Case) ${short(rowEstimate(sys, 'ROUGE-S*', 'Case', 0))}.`,
      );
    }
  }
  if (lines.length === 0) return '';
  return ['### 1.4 Against the seeds\' findings', '', ...lines, ''].join('\n');
}

function signatureSection(sigs: readonly [string, Signatures][]): string {
  const out: string[] = [
    '## 4. Versions and signatures',
    '',
    `Palette ${VERSION}, Node ${process.version}. BLEU1, BLEU4 and BLEU12 share a signature: like sacreBLEU's, it does ` +
      'not record the maximum order. The Stem set\'s texts are lowercased and stemmed before the metric sees them, so its ' +
      'signatures say `c:mixed` (the metric itself does not lowercase).',
    '',
  ];
  for (const [what, map] of sigs) {
    out.push(`${what}:`, '');
    // `|` separates table cells even inside code spans.
    const rows = [...map.entries()].map(([k, v]) => [k, `\`${v.replace(/\|/g, '\\|')}\``]);
    out.push(table(['Metric (set)', 'Signature'], rows, ['l', 'l']), '');
  }
  return out.join('\n');
}

/** The whole page. */
export function renderReport(report: ExperimentReport): string {
  const parts: string[] = [
    '# Palette experiments: the seed papers\' meta-evaluations on our data',
    '',
    `Generated by \`${report.command}\`${report.quick ? ' (--quick: fewer resamples, for development only)' : ''}; ` +
      `total run time ${seconds(report.totalMs)}. Bootstrap: ${report.resamples} resamples, seed ${report.seed}. ` +
      'Every number below is computed by the script from ../shared/data; nothing is copied from the papers except ' +
      'where a sentence says "seed … reports".',
    '',
  ];
  if (report.wmt !== undefined || report.summeval !== undefined) {
    parts.push(
      '## 1. Correlation with human judgments (seeds 000, 001, 003)',
      '',
      'Metric list of seed 000 (Lin & Och 2004, Table 1): BLEU1/4/12 (sacreBLEU BLEU with maximum order 1, 4, 12; ' +
        'exponential smoothing, as sacreBLEU), NIST (mteval-v13a), WER, PER, GTM (exponent 1), ROUGE-L, ROUGE-W-1.2, ' +
        'ROUGE-S*, ROUGE-S4, ROUGE-S9 (Lin & Och\'s definitions: F with β = 1). All split words with sacreBLEU\'s 13a ' +
        'tokenizer. Case = text as is; NoCase = each metric lowercases; Stem = text lowercased and Porter-stemmed ' +
        '(ROUGE-1.5.5\'s stemmer, alphabetic tokens longer than 3 characters) before every metric. System scores are ' +
        'corpus scores reduced from summed statistics rows, recomputed on every bootstrap resample; segment scores are ' +
        'sentence scores. Pearson and Spearman (system level), plus Kendall τ-b (segment level), each with a 95% ' +
        'percentile bootstrap interval. Each table says how many rows have an upper Pearson bound at or above the best ' +
        'Pearson value: a loose reading of the seed\'s "statistically equivalent to the best" cells, not a paired test. ' +
        'Set "table lc": ParaEval lowercases text and table phrases itself (its table\'s options).',
      '',
    );
  }
  if (report.wmt !== undefined) parts.push(wmtSection(report.wmt.facts, report.wmt.result, report.resamples, report.seed));
  if (report.summeval !== undefined) {
    parts.push(summEvalSection(report.summeval.facts, report.summeval.result, report.resamples, report.seed));
    parts.push(beyondSurfaceSection(report.summeval.result));
  }
  parts.push(seedComparison(report));
  if (report.jackknife !== undefined) parts.push(jackknifeSection(report.jackknife, report));
  if (report.orange !== undefined) parts.push(orangeSection(report.orange, report.resamples, report.seed));
  if (report.bleuWc !== undefined) parts.push(bleuWcSection(report.bleuWc));
  const sigs: [string, Signatures][] = [];
  if (report.wmt !== undefined) sigs.push(['WMT21 en-de (3 references)', report.wmt.result.signatures]);
  if (report.summeval !== undefined) sigs.push(['SummEval (11 references)', report.summeval.result.signatures]);
  if (report.jackknife !== undefined) sigs.push(['Jackknifed (1.5)', report.jackknife.signatures]);
  parts.push(signatureSection(sigs));
  return parts.filter((p) => p.length > 0).join('\n\n').replace(/\n{3,}/g, '\n\n');
}
