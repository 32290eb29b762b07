/**
 * `palette orange -m paraeval impact npchunk` with `palette score`'s flags (`--paraphrase-table`, `--chunker`,
 * `--impact-*`, `--npchunk-delta`, `--paraeval-*`) on the Joshua slice of test/fixtures/orange, in one pass with the
 * paper's variants, against the plain oracle of test/reference/orange.ts, in-thread and with workers; and the
 * errors (missing or malformed table, unknown chunker, bad values, malformed pre-chunked lines) as exit status 2
 * with one line naming file and line.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runOrangeCommand } from '../src/cli/orange/command.js';
import { readLines } from '../src/node/read-lines.js';
import { orangeOfTerms } from '../src/meta/orange/orange.js';
import { parseOrangeMetrics } from '../src/meta/orange/variants.js';
import type { MetricSettings } from '../src/metrics/registry.js';
import { cliRunner, expectInputError } from './helpers/cli.js';
import { referenceOrangeTerms, type OrangeCase } from './reference/orange.js';

const fixture = (name: string): string => fileURLToPath(new URL(`./fixtures/orange/${name}`, import.meta.url));
const NBEST = fixture('joshua.nbest');
const REFS = [0, 1, 2, 3].map((j) => fixture(`joshua.ref.${j}`));
const TABLE = fixture('paraphrase.tsv');

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'palette-orange-metrics-'));
});
afterAll(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

const orange = cliRunner([], runOrangeCommand);

interface JsonReport {
  metrics: { name: string; orange: number; lowerIsBetter: boolean }[];
}

/** The Joshua slice as an oracle case. */
function joshuaCase(): OrangeCase {
  const refStreams = REFS.map((f) => readLines(f));
  const byId = new Map<number, string[]>();
  for (const line of readFileSync(NBEST, 'utf8').trimEnd().split('\n')) {
    const fields = line.split('|||');
    const id = Number(fields[0]);
    byId.set(id, [...(byId.get(id) ?? []), fields[1].trim()]);
  }
  return { refStreams, sentences: [...byId].map(([id, candidates]) => ({ id, candidates })) };
}

describe('palette orange -m paraeval impact npchunk', () => {
  const flags = ['--paraphrase-table', TABLE, '--paraeval-score', 'recall', '--chunker', 'bracketed', '--impact-alpha', '0.5', '--impact-beta', '2', '--npchunk-delta', '0.5'];
  const settings: MetricSettings = {
    paraeval: { table: TABLE, score: 'recall' },
    npchunk: { chunker: 'bracketed', alpha: 0.5, beta: 2, delta: 0.5 },
  };

  it('ORANGE of each equals the oracle, with the other variants in the same pass, in-thread and with 2 workers', async () => {
    const c = joshuaCase();
    const args = ['--nbest', NBEST, '-r', ...REFS, '-m', 'bleus4', 'paraeval', 'impact', 'npchunk', 'rouge-l', ...flags, '-b', '0', '-f', 'json', '-q'];
    const r = await orange(args);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const report = JSON.parse(r.out) as JsonReport;
    for (const v of parseOrangeMetrics(['bleus4', 'paraeval', 'impact', 'npchunk', 'rouge-l'])) {
      const row = report.metrics.find((m) => m.name === v.name)!;
      expect(row.lowerIsBetter).toBe(false);
      expect(row.orange).toBe(orangeOfTerms(Float64Array.from(referenceOrangeTerms(v, c, settings))));
    }
    const pooled = await orange([...args, '-j', '2']);
    expect(pooled.out).toBe(r.out);
  }, 60_000);

  it('the flags reach the metrics: other settings, other numbers', async () => {
    const base = ['--nbest', NBEST, '-r', ...REFS, '-b', '0', '-f', 'json', '-q'];
    const score = async (args: string[]): Promise<number> => (JSON.parse((await orange([...base, ...args])).out) as JsonReport).metrics[0].orange;
    const c = joshuaCase();
    const impact = parseOrangeMetrics(['impact'])[0];
    expect(await score(['-m', 'impact'])).toBe(orangeOfTerms(Float64Array.from(referenceOrangeTerms(impact, c, {}))));
    expect(await score(['-m', 'impact', '--impact-alpha', '0.9'])).toBe(
      orangeOfTerms(Float64Array.from(referenceOrangeTerms(impact, c, { npchunk: { alpha: 0.9 } }))),
    );
    const para = parseOrangeMetrics(['paraeval'])[0];
    expect(await score(['-m', 'paraeval', '--paraphrase-table', TABLE])).toBe(
      orangeOfTerms(Float64Array.from(referenceOrangeTerms(para, c, { paraeval: { table: TABLE } }))),
    );
  }, 60_000);

  async function fails(args: string[], message: RegExp): Promise<void> {
    expectInputError(await orange(['--nbest', NBEST, '-r', ...REFS, '-q', ...args]), 'orange', message);
  }

  it('errors: missing and malformed table, unknown chunker, bad values, malformed pre-chunked candidate', async () => {
    await fails(['-m', 'paraeval'], /-m paraeval needs --paraphrase-table FILE/);
    await fails(['-m', 'paraeval', '--paraphrase-table', fixture('bad-paraphrase.tsv')], new RegExp(`${fixture('bad-paraphrase.tsv')}:1: `));
    await fails(['-m', 'paraeval', '--paraphrase-table', join(dir, 'none.tsv')], /none\.tsv/);
    await fails(['-m', 'npchunk', '--chunker', 'spacy'], /--chunker.*spacy|unknown chunker/);
    await fails(['-m', 'impact', '--impact-beta', '0.5'], /--impact-beta/);
    await fails(['-m', 'nonesuch'], /unknown ORANGE metric "nonesuch".*paraeval, impact, npchunk/);
    const bad = join(dir, 'bad.nbest');
    const lines = readFileSync(NBEST, 'utf8').split('\n');
    lines[6] = lines[6].replace(' ||| ', ' ||| [NP ');
    writeFileSync(bad, lines.join('\n'));
    for (const j of ['1', '2']) {
      const r = await orange(['--nbest', bad, '-r', ...REFS, '-q', '-m', 'npchunk', '--chunker', 'bracketed', '-j', j]);
      expect(r.code).toBe(2);
      expect(r.err).toMatch(new RegExp(`^palette orange: error: ${bad}:7: pre-chunked input: .*not closed\\n$`));
    }
  }, 60_000);

  it('--help names the metrics and their flags', async () => {
    const r = await orange(['--help']);
    expect(r.code).toBe(0);
    for (const s of ['paraeval', 'impact', 'npchunk', '--paraphrase-table FILE', '--chunker NAME', '--impact-alpha', '--npchunk-delta']) {
      expect(r.out).toContain(s);
    }
  });
});
