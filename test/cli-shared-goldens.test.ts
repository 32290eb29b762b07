import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { run } from '../src/cli/main.js';
import type { Metric, PreparedReferences } from '../src/metrics/metric.js';
import { defaultRegistry, type MetricRegistry } from '../src/metrics/registry.js';
import { VERSION } from '../src/version.js';
import { captureCli } from './helpers/cli.js';
import { haveShared, sharedPath } from './helpers/shared-data.js';

// sacrebleu 2.6.0's printed CLI output (golden/sacrebleu/corpus-all-systems.*.json: `cli_text_w2` = `-f text -w 2`,
// `cli_json_w1` = the default JSON with `-w 1`, `signature_short` = `-sh`) for every WMT17 and WMT21 en-de system,
// compared as exact strings. Each record's own `cli` command line (sacrebleu's flags) is run through `palette score`
// unchanged. The only substitution: sacrebleu prints its version (2.6.0) in signatures, Palette prints its own.
// TER records (sacreBLEU's default TER) are compared like the others; counted below so that none is dropped silently.
// Needs ../shared (the data and goldens); skipped cleanly when it is absent.

const shared = sharedPath();
const present = haveShared('golden/sacrebleu/corpus-all-systems.wmt17-en-de.json');

interface GoldenRecord {
  hyp: string;
  refs: string[];
  config: { metric: string; cli: string };
  corpus: { signature: string; signature_short: string; cli_text_w2: string; cli_json_w1: string };
}

const withPaletteVersion = (s: string): string =>
  s.replace(/version:2\.6\.0/g, `version:${VERSION}`).replace(/v:2\.6\.0/g, `v:${VERSION}`).replace(/"version": "2\.6\.0"/g, `"version": "${VERSION}"`);

/**
 * `defaultRegistry` whose metrics remember prepared references and statistics rows between runs: the three runs of
 * a record (text, JSON, -sh) then cost one scoring, and every run still goes from argv to stdout through the CLI.
 */
function cachingRegistry(): MetricRegistry {
  const prepared = new Map<string, PreparedReferences>();
  const stats = new Map<string, Float64Array>();
  const memo = <T>(cache: Map<string, T>, key: string, compute: () => T): T => {
    let value = cache.get(key);
    if (value === undefined) {
      value = compute();
      cache.set(key, value);
    }
    return value;
  };
  return {
    ids: defaultRegistry.ids,
    create(id, settings) {
      const cm = defaultRegistry.create(id, settings);
      const inner = cm.metric;
      const metricKey = JSON.stringify([id, settings]);
      const refKeys = new WeakMap<PreparedReferences, string>();
      const metric: Metric = Object.assign(Object.create(inner) as Metric, {
        prepareReferences: (streams: readonly (readonly string[])[]) => {
          const key = metricKey + streams.map((s) => s.join('\n')).join('\u0000');
          const refs = memo(prepared, key, () => inner.prepareReferences(streams));
          refKeys.set(refs, key);
          return refs;
        },
        segmentStats: (hyps: readonly string[], refs: PreparedReferences) =>
          memo(stats, `${refKeys.get(refs)}\u0001${hyps.join('\n')}`, () => inner.segmentStats(hyps, refs)),
      });
      return { ...cm, metric };
    },
  };
}

async function palette(argv: string[], registry: MetricRegistry): Promise<{ code: number; out: string; err: string }> {
  return captureCli((a, io) => run(a, io, registry), argv);
}

/** The record's sacrebleu command line as `palette score` arguments, with the data files' real paths. */
function argvOf(record: GoldenRecord): string[] {
  const words = record.config.cli.split(/\s+/);
  expect(words[0]).toBe('sacrebleu');
  return [
    'score',
    ...words.slice(1).map((w) => {
      const ref = /^REF(\d+)$/.exec(w);
      if (ref) return `${shared}data/${record.refs[Number(ref[1]) - 1]}`;
      return w === 'HYP' ? `${shared}data/${record.hyp}` : w;
    }),
  ];
}

describe.skipIf(!present)('sacrebleu 2.6.0 CLI output, all systems (../shared goldens)', () => {
  for (const [file, expectedCompared, expectedTer] of [
    ['corpus-all-systems.wmt17-en-de.json', 160, 16],
    ['corpus-all-systems.wmt21-en-de.json', 240, 80],
  ] as const) {
    it(`${file}: text -w 2, JSON -w 1 and -sh output equal sacrebleu's`, async () => {
      const records = (JSON.parse(readFileSync(`${shared}golden/sacrebleu/${file}`, 'utf8')) as { records: GoldenRecord[] }).records;
      const compared = records;
      expect([records.length - records.filter((r) => r.config.metric === 'TER').length, records.filter((r) => r.config.metric === 'TER').length]).toEqual([expectedCompared, expectedTer]);
      const registry = cachingRegistry();
      const mismatches: string[] = [];
      for (const record of compared) {
        const argv = argvOf(record);
        const text = await palette([...argv, '-f', 'text', '-w', '2'], registry);
        const json = await palette([...argv, '-w', '1'], registry);
        const short = await palette([...argv, '-f', 'text', '-w', '2', '-sh'], registry);
        const c = record.corpus;
        const expectedShort = c.cli_text_w2.replace(c.signature, c.signature_short);
        if (text.out !== `${withPaletteVersion(c.cli_text_w2)}\n`) mismatches.push(`${record.hyp} ${record.config.cli}: ${text.out}${text.err}`);
        if (json.out !== `${withPaletteVersion(c.cli_json_w1)}\n`) mismatches.push(`${record.hyp} ${record.config.cli} (json): ${json.out}${json.err}`);
        if (short.out !== `${withPaletteVersion(expectedShort)}\n`) mismatches.push(`${record.hyp} ${record.config.cli} (-sh): ${short.out}${short.err}`);
      }
      expect(mismatches).toEqual([]);
    });
  }
});
