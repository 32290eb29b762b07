/**
 * The metric catalog (src/metrics/catalog.ts) is the one list of metrics, and each descriptor tells the truth:
 * - every entry has every field, ids and aliases are unique, and the registry, the `-m` names and the metric flags of
 *   `palette score` (and of the commands that take them) are the catalog's, nothing beside it;
 * - each descriptor's options are the settings its flags set, and each value default it states is the metric's
 *   default (the metric built with the value given is the metric built without it);
 * - the facts consumers act on hold for the metric itself: its direction (a copy of a reference scores better than a
 *   scramble), its reduction (`sum`/`mean` rows reduce through their sums; `mean` is the mean of the sentence scores),
 *   whole-reference rows (rows of part of the corpus prepared alone differ exactly for those metrics), `-sl` (the
 *   `-sl` instance scores and signs as the plain one exactly where the descriptor says so), JSON fields (each is a
 *   number in the score's details), score name and print width;
 * - and the consumers follow them: the report's directions, ORANGE's, correlate's `-sl` instances, the n-best engine's
 *   rows.
 * Data: the first segments of samples/joshua-bn-en (four references), and samples/paraphrase/en-para.tsv for ParaEval.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import '../src/node/install.js';
import { parseScoreCommand, scoreHelp, METRIC_OPTION_SPECS, PARAPHRASE_CHUNK_OPTION_SPECS, SCORE_OPTION_SPECS } from '../src/cli/score-options.js';
import { scoreSystems } from '../src/cli/correlate/scored-metric.js';
import { buildNbestMetrics } from '../src/engine/nbest/nbest-metrics.js';
import { catalogMetricOf, lowerIsBetter, parseOrangeMetrics } from '../src/meta/orange/variants.js';
import { METRIC_CATALOG, METRIC_FAMILY_PATTERNS, METRIC_FLAGS, METRIC_IDS, metricDescriptor, type MetricSettings } from '../src/metrics/catalog.js';
import type { CorpusReduction, FlagValues, MetricDescriptor } from '../src/metrics/descriptor.js';
import { sumRows } from '../src/metrics/metric.js';
import { defaultRegistry, type CliMetric, type MetricRegistry } from '../src/metrics/registry.js';
import { buildReport } from '../src/report/build-report.js';

const catalog: readonly MetricDescriptor[] = METRIC_CATALOG;
const repo = (rel: string): string => fileURLToPath(new URL(`../${rel}`, import.meta.url));
const TABLE = repo('samples/paraphrase/en-para.tsv');
const SEGMENTS = 12;
const lines = (rel: string): string[] => readFileSync(repo(rel), 'utf8').split('\n').slice(0, SEGMENTS);
const REFS = [0, 1, 2, 3].map((j) => lines(`samples/joshua-bn-en/reference.en.${j}`));
const HYPS = lines('samples/joshua-bn-en/output.1best');

/** The `-m` name a test builds a descriptor's metric with (a family: its example member). */
const nameOf = (d: MetricDescriptor): string => d.family?.example ?? d.id;

/** Settings a metric cannot be built without (ParaEval's table). */
const BASE: Readonly<Record<string, object>> = { paraeval: { table: TABLE } };

/** Command-line metric settings with `own` as `d`'s settings. */
function settingsFor(d: MetricDescriptor, own: object = {}, sentenceLevel = false): MetricSettings {
  return { sentenceLevel, [d.settingsKey]: { ...BASE[d.settingsKey], ...own } } as MetricSettings;
}

function build(d: MetricDescriptor, own: object = {}, sentenceLevel = false): CliMetric {
  return defaultRegistry.create(nameOf(d), settingsFor(d, own, sentenceLevel));
}

function rowsOf(cli: CliMetric, hyps: readonly string[] = HYPS, refs: readonly (readonly string[])[] = REFS): Float64Array {
  return cli.metric.segmentStats(hyps, cli.metric.prepareReferences(refs));
}

/** A flag reader that answers nothing and records the keys asked for; `flagsOn` answers every no-value flag "given". */
function recordingFlags(flagsOn = false): { flags: FlagValues; keys: Set<string> } {
  const keys = new Set<string>();
  const ask = <T>(key: string, value: T): T => {
    keys.add(key);
    return value;
  };
  return {
    keys,
    flags: {
      string: (key) => ask(key, undefined),
      flag: (key) => ask(key, flagsOn),
      int: (key) => ask(key, undefined),
      number: (key) => ask(key, undefined),
      choice: (key) => ask(key, undefined),
      tokenizer: (key) => ask(key, undefined),
    },
  };
}

describe('the catalog', () => {
  it('has every field of every descriptor, with ids and aliases unique in any case', () => {
    const names = new Set<string>();
    for (const d of catalog) {
      expect(d.id, d.id).toMatch(/^[a-z0-9-]+$/);
      expect(Array.isArray(d.aliases), d.id).toBe(true);
      for (const name of [d.id, ...d.aliases]) {
        expect(names.has(name.toLowerCase()), name).toBe(false);
        names.add(name.toLowerCase());
      }
      if (d.family !== null) {
        expect(d.family.patterns.length, d.id).toBeGreaterThan(0);
        expect(d.family.claims(d.family.example), d.id).toBe(true);
      }
      expect(d.scoreName.length, d.id).toBeGreaterThan(0);
      expect(['higher', 'lower'], d.id).toContain(d.direction);
      expect(['sum', 'mean', 'ordered'], d.id).toContain(d.reduction({}));
      expect(typeof d.wholeReference, d.id).toBe('boolean');
      expect(typeof d.sentenceLevelSame, d.id).toBe('boolean');
      expect(Array.isArray(d.jsonFields), d.id).toBe(true);
      expect(d.defaultWidth === null || Number.isInteger(d.defaultWidth), d.id).toBe(true);
      expect(d.settingsKey.length, d.id).toBeGreaterThan(0);
      expect(d.options.length, d.id).toBeGreaterThan(0);
      expect(d.flags.length, d.id).toBeGreaterThan(0);
      expect(typeof d.readSettings, d.id).toBe('function');
      expect(typeof d.create, d.id).toBe('function');
    }
  });

  it('is the registry: its -m names, families and descriptors', () => {
    expect(defaultRegistry.ids).toEqual(catalog.filter((d) => d.family === null).map((d) => d.id));
    expect(defaultRegistry.ids).toEqual(METRIC_IDS);
    expect(defaultRegistry.families).toEqual(catalog.flatMap((d) => d.family?.patterns ?? []));
    expect(METRIC_FAMILY_PATTERNS).toEqual(defaultRegistry.families);
    for (const d of catalog) {
      const name = nameOf(d);
      for (const spelling of [name, name.toUpperCase(), ...d.aliases]) {
        expect(defaultRegistry.describe!(spelling), spelling).toBe(d);
        expect(metricDescriptor(spelling), spelling).toBe(d);
      }
      const canonical = defaultRegistry.resolve!(name.toUpperCase(), settingsFor(d));
      expect(canonical, d.id).toBe(d.family === null ? d.id : d.family.resolve(name, {}));
    }
    expect(metricDescriptor('no-such-metric')).toBeUndefined();
    expect(() => defaultRegistry.create('no-such-metric', {})).toThrow(/unknown metric "no-such-metric"/);
  });

  it('gives palette score every metric flag, and only from the descriptors', () => {
    const fromDescriptors = new Set(catalog.flatMap((d) => d.flags));
    const metricGroups = new Set([...fromDescriptors].map((s) => s.group));
    for (const spec of SCORE_OPTION_SPECS) {
      // A flag in a metric's help section is a descriptor's; the other sections are the command's own.
      if (metricGroups.has(spec.group)) expect(fromDescriptors.has(spec), spec.names[0]).toBe(true);
      else expect(['Input', 'Metric selection', 'Reporting', 'Confidence intervals and paired significance tests (sacrebleu flags)', 'Queue (many machines)', 'Recognised but not available in this version'], spec.names[0]).toContain(spec.group);
    }
    for (const spec of fromDescriptors) expect(SCORE_OPTION_SPECS, spec.names[0]).toContain(spec);
    expect(METRIC_OPTION_SPECS).toEqual(METRIC_FLAGS);
    expect(new Set(METRIC_FLAGS)).toEqual(fromDescriptors);
    expect(PARAPHRASE_CHUNK_OPTION_SPECS).toEqual(['paraeval', 'impact', 'npchunk'].flatMap((id) => [...metricDescriptor(id)!.flags]).filter((s, k, all) => all.indexOf(s) === k));
    const help = scoreHelp([...defaultRegistry.ids, ...(defaultRegistry.families ?? [])]);
    const metricsLine = help.split('\n').find((l) => l.startsWith('Metrics: '))!;
    for (const name of [...METRIC_IDS, ...METRIC_FAMILY_PATTERNS]) expect(metricsLine, name).toContain(name);
    for (const spec of fromDescriptors) expect(help, spec.names[0]).toContain(spec.help);
  });
});

describe('each descriptor', () => {
  it("reads exactly its options' flags, from its own table, and every setting it reads has an option", () => {
    for (const d of catalog) {
      const { flags, keys } = recordingFlags(true);
      const settings = d.readSettings(flags) as Record<string, unknown>;
      const table = new Set(d.flags.map((s) => s.key));
      for (const key of keys) expect(table.has(key), `${d.id}: ${key}`).toBe(true);
      // Every setting field the flags fill is documented, with the flag that fills it (by this metric, or by the other
      // metric that shares its settings: IMPACT has no chunker).
      for (const o of d.options) expect(Object.keys(settings), `${d.id}: ${o.setting}`).toContain(o.setting);
      const sharing = catalog.filter((other) => other.settingsKey === d.settingsKey);
      expect(new Set(sharing.flatMap((other) => other.options.map((o) => o.setting))), d.id).toEqual(new Set(Object.keys(settings)));
      for (const o of d.options) expect(keys.has(o.flag), `${d.id}: ${o.flag}`).toBe(true);
      // A flag of the table that this metric does not read is another metric's (a shared table) or the command's own.
      for (const spec of d.flags) {
        if (keys.has(spec.key)) continue;
        const readers = catalog.filter((other) => {
          const r = recordingFlags(true);
          other.readSettings(r.flags);
          return r.keys.has(spec.key);
        });
        if (readers.length > 0) continue;
        const argv = ['REF', '-i', 'HYP'];
        const without = parseScoreCommand(argv);
        const withFlag = parseScoreCommand([...argv, spec.arity === 'flag' ? spec.names[0] : `${spec.names[0]}=1`]);
        expect(JSON.stringify(withFlag), `${d.id}: ${spec.names[0]} is read by no one`).not.toBe(JSON.stringify(without));
      }
    }
  });

  it('states the defaults its metric has', () => {
    for (const d of catalog) {
      for (const o of d.options) {
        if (!('value' in o.default)) continue;
        const plain = build(d, { ...o.appliesWith });
        const given = build(d, { ...o.appliesWith, [o.setting]: o.default.value });
        const label = `${d.id}.${o.setting} = ${String(o.default.value)}`;
        expect(given.signature(4, false), label).toBe(plain.signature(4, false));
        expect(given.signature(4, true), label).toBe(plain.signature(4, true));
        const rows = rowsOf(plain);
        expect(rowsOf(given), label).toEqual(rows);
        expect(given.corpusScore(rows), label).toEqual(plain.corpusScore(rows));
      }
    }
  });

  it('says which way is better: a copy of a reference beats a scramble of another segment', () => {
    for (const d of catalog) {
      const cli = build(d);
      const copy = REFS[0].slice();
      const scramble = REFS[0].map((_, i) => REFS[1][(i + 5) % SEGMENTS].split(' ').reverse().join(' '));
      const score = (hyps: string[]): number => cli.corpusScore(rowsOf(cli, hyps)).score;
      const [good, bad] = [score(copy), score(scramble)];
      if (d.direction === 'higher') expect(good, d.id).toBeGreaterThan(bad);
      else expect(good, d.id).toBeLessThan(bad);
    }
  });

  it('reduces as it says: sum and mean through the column sums, mean as the mean of the sentence scores', () => {
    const cases: [MetricDescriptor, object][] = catalog.map((d) => [d, {}]);
    cases.push([metricDescriptor('bleu')!, { flavor: 'nltk', nltkSmoothing: 7 }], [metricDescriptor('bleu')!, { flavor: 'moses' }]);
    cases.push([metricDescriptor('rouge-l')!, { average: 'pooled' }], [metricDescriptor('bleu')!, { flavor: 'lin-och' }]);
    const seen = new Set<CorpusReduction>();
    for (const [d, own] of cases) {
      const label = `${d.id} ${JSON.stringify(own)}`;
      const reduction = d.reduction(own);
      seen.add(reduction);
      const cli = build(d, own);
      const rows = rowsOf(cli);
      const width = cli.metric.statsWidth;
      if (reduction === 'ordered') {
        // The rows in order carry what their sums lose (NLTK's methods 5-7 refuse to score sums at all).
        if ((own as { nltkSmoothing?: number }).nltkSmoothing === 7) expect(() => cli.metric.scoreFromStats(sumRows(rows, width)), label).toThrow();
        continue;
      }
      expect(cli.corpusScore(rows), label).toEqual(cli.metric.scoreFromStats(sumRows(rows, width)));
      const sentences: number[] = [];
      for (let i = 0; i < SEGMENTS; i++) sentences.push(cli.metric.sentenceScoreFromStats(rows.subarray(i * width, (i + 1) * width)).score);
      const mean = sentences.reduce((a, b) => a + b, 0) / SEGMENTS;
      if (reduction === 'mean') expect(cli.corpusScore(rows).score, label).toBeCloseTo(mean, 12);
      else expect(Math.abs(cli.corpusScore(rows).score - mean), label).toBeGreaterThan(1e-9);
    }
    expect(seen).toEqual(new Set(['sum', 'mean', 'ordered']));
  });

  it('needs every reference for its rows exactly when it says so', () => {
    const part = [3, 4, 5];
    for (const d of catalog) {
      const cli = build(d);
      const width = cli.metric.statsWidth;
      const whole = rowsOf(cli);
      const alone = rowsOf(cli, part.map((i) => HYPS[i]), REFS.map((stream) => part.map((i) => stream[i])));
      const same = part.every((s, k) => whole.subarray(s * width, (s + 1) * width).every((x, c) => Object.is(x, alone[k * width + c])));
      expect(same, d.id).toBe(!d.wholeReference);
    }
  });

  it('keeps its plain instance under -sl exactly when it says so', () => {
    for (const d of catalog) {
      const plain = build(d, {}, false);
      const sl = build(d, {}, true);
      const rows = rowsOf(plain);
      const width = plain.metric.statsWidth;
      const sentence = (cli: CliMetric): unknown[] =>
        Array.from({ length: SEGMENTS }, (_, i) => cli.metric.sentenceScoreFromStats(rows.subarray(i * width, (i + 1) * width)));
      const same =
        sl.signature(4, false) === plain.signature(4, false) &&
        sl.signature(4, true) === plain.signature(4, true) &&
        JSON.stringify(sentence(sl)) === JSON.stringify(sentence(plain)) &&
        JSON.stringify(Array.from(rowsOf(sl))) === JSON.stringify(Array.from(rows));
      expect(same, d.id).toBe(d.sentenceLevelSame);
    }
  });

  it('names its score, JSON fields and print width as its instances have them', () => {
    for (const d of catalog) {
      const cli = build(d);
      const score = cli.corpusScore(rowsOf(cli));
      expect(score.name, d.id).toBe(d.scoreName);
      for (const f of d.jsonFields) expect(typeof score.details?.[f.detail], `${d.id}: ${f.detail}`).toBe('number');
      expect(cli.jsonFields, d.id).toEqual(d.jsonFields);
      expect(cli.defaultWidth, d.id).toBe(d.defaultWidth ?? undefined);
    }
  });
});

describe('the consumers follow the descriptors', () => {
  it("report: each metric's direction", () => {
    const metrics = catalog.map((d) => ({ id: defaultRegistry.resolve!(nameOf(d), settingsFor(d)), metric: build(d) }));
    const data = buildReport({
      version: '0',
      references: REFS,
      systems: [{ name: 'a', lines: HYPS }, { name: 'b', lines: REFS[0] }],
      metrics,
    });
    expect(data.metrics.map((m) => m.higherIsBetter)).toEqual(catalog.map((d) => d.direction === 'higher'));
  });

  it("ORANGE: every variant is a setting of a catalog metric, and has that metric's direction", () => {
    const variants = parseOrangeMetrics(['bleus1-2', 'nist', 'rouge-1', 'rouge-l', 'rouge-w', 'rouge-s4', 'rouge-su*', 'wer', 'per', 'gtm-2', 'paraeval', 'impact', 'npchunk']);
    const ids = new Set<string>();
    for (const v of variants) {
      const d = metricDescriptor(catalogMetricOf(v));
      expect(d, v.name).toBeDefined();
      ids.add(d!.id);
      expect(lowerIsBetter(v), v.name).toBe(d!.direction === 'lower');
    }
    expect([...ids].sort()).toEqual(['bleu', 'gtm', 'impact', 'nist', 'npchunk', 'paraeval', 'per', 'rouge', 'wer']);
  });

  it('correlate: one instance where -sl keeps the plain one, two elsewhere', () => {
    const fx = (name: string): string => repo(`test/fixtures/correlate/metrics/${name}`);
    for (const d of catalog) {
      let created = 0;
      const counting: MetricRegistry = {
        ...defaultRegistry,
        create: (id, settings) => {
          created++;
          return defaultRegistry.create(id, settings);
        },
      };
      const hyps = ['A', 'B'].map((system) => ({ system, file: fx(`${system}.txt`) }));
      scoreSystems(nameOf(d), [fx('ref.txt')], hyps, counting, undefined, settingsFor(d));
      expect(created, d.id).toBe(d.sentenceLevelSame ? 1 : 2);
    }
  });

  it("n-best engine: a task's rows are the whole corpus's rows, whole-reference metrics included", () => {
    const ids = catalog.filter((d) => d.id !== 'bleu').map((d) => defaultRegistry.resolve!(nameOf(d), settingsFor(d)));
    const settings = { paraeval: { table: TABLE } } as MetricSettings;
    const metrics = buildNbestMetrics({ ids, settings }, defaultRegistry);
    const part = [3, 4, 5];
    const task = {
      hyps: part.map((i) => HYPS[i]),
      hypLocal: Int32Array.from(part, (_, k) => k),
      segmentIds: Int32Array.from(part),
      segmentStarts: Int32Array.from([0, 1, 2, 3]),
    };
    const refs = { nRefs: REFS.length, segments: SEGMENTS, line: (j: number, s: number) => REFS[j][s] };
    for (const m of metrics) {
      const whole = m.metric.segmentStats(HYPS, m.metric.prepareReferences(REFS));
      const expected = Float64Array.from(part.flatMap((s) => Array.from(whole.subarray(s * m.width, (s + 1) * m.width))));
      expect(m.rows(task, refs), m.id).toEqual(expected);
    }
  });
});
