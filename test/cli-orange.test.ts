/**
 * `palette orange` end to end from a clone: the Joshua slice of test/fixtures/orange (5 sentences, 10-best, 4
 * references) against the plain oracle of test/reference/orange.ts, the text and JSON reports, tied references,
 * reproducible bootstrap intervals, and every bad input as exit status 2 with file and line.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../src/cli/main.js';
import { runOrangeCommand } from '../src/cli/orange/command.js';
import { readLines } from '../src/node/read-lines.js';
import { orangeOfTerms } from '../src/meta/orange/orange.js';
import { parseOrangeMetrics } from '../src/meta/orange/variants.js';
import { captureCli, cliRunner, expectInputError } from './helpers/cli.js';
import { referenceOrangeTerms, type OrangeCase } from './reference/orange.js';

const fixture = (name: string): string => fileURLToPath(new URL(`./fixtures/orange/${name}`, import.meta.url));
const NBEST = fixture('joshua.nbest');
const REFS = [0, 1, 2, 3].map((j) => fixture(`joshua.ref.${j}`));

let dir: string;
const f = (name: string): string => join(dir, name);

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'palette-orange-'));
  writeFileSync(f('ref-a'), 'a b c\nd e\n');
  writeFileSync(f('ref-b'), 'a b c\nd f\n');
  writeFileSync(f('ref-short'), 'a b c\n');
  writeFileSync(f('ref-empty-line'), 'a b c\n  \n');
  writeFileSync(f('good'), '0 ||| a b c ||| f=1 ||| -1\n0 ||| x ||| f=1 ||| -2\n1 ||| d e ||| f=0 ||| -3\n');
  writeFileSync(f('malformed'), '0 ||| a b c ||| f=1 ||| -1\n1 ||| d e\n');
  writeFileSync(f('no-reference'), '0 ||| a ||| f=0 ||| 0\n2 ||| d e ||| f=0 ||| 0\n');
  writeFileSync(f('empty'), '\n');
});

afterAll(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

const orange = cliRunner([], runOrangeCommand);

interface JsonReport {
  sentences: number;
  candidates: number;
  references: number;
  bootstrap: number;
  seed: number;
  metrics: { name: string; orange: number; ci?: [number, number]; lowerIsBetter: boolean }[];
}

const ALL = ['bleus1-9', 'nist', 'rouge-1-4', 'rouge-l', 'rouge-w-1.1-2.0', 'rouge-s0-9', 'rouge-s*', 'rouge-su4', 'wer', 'per', 'gtm', 'gtm-2'];

/** The fixture as an oracle case. */
function fixtureCase(): OrangeCase {
  const byId = new Map<number, string[]>();
  for (const line of readLines(NBEST)) {
    const [id, hyp] = line.split('|||');
    const k = Number(id.trim());
    byId.set(k, [...(byId.get(k) ?? []), hyp]);
  }
  return {
    refStreams: REFS.map((r) => readLines(r)),
    sentences: [...byId].map(([id, candidates]) => ({ id, candidates })),
  };
}

describe('palette orange on the Joshua slice (4 references, 10-best)', () => {
  it('JSON: every variant equals the plain oracle, lies in (0, 1), sorted by ORANGE', async () => {
    const r = await orange(['--nbest', NBEST, '-r', ...REFS, '-m', ...ALL, '--bootstrap', '0', '-f', 'json']);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const report = JSON.parse(r.out) as JsonReport;
    expect(report).toMatchObject({ sentences: 5, candidates: 41, references: 4, bootstrap: 0 });
    const variants = parseOrangeMetrics(ALL);
    expect(report.metrics).toHaveLength(variants.length);
    const c = fixtureCase();
    for (const v of variants) {
      const row = report.metrics.find((m) => m.name === v.name)!;
      expect(row.orange).toBe(orangeOfTerms(Float64Array.from(referenceOrangeTerms(v, c))));
      expect(row.orange).toBeGreaterThan(0);
      expect(row.orange).toBeLessThan(1);
      expect(row.lowerIsBetter).toBe(v.kind === 'wer' || v.kind === 'per');
    }
    const scores = report.metrics.map((m) => m.orange);
    expect(scores).toEqual([...scores].sort((a, b) => a - b));
  });

  it('text: a table sorted by ORANGE with seeded, reproducible 95% intervals around it', async () => {
    const argv = ['--nbest', NBEST, '-r', ...REFS, '-m', 'bleus4', 'rouge-l', 'wer', '--bootstrap', '200', '--seed', '7'];
    const a = await orange(argv);
    const b = await orange(argv);
    expect(a.code).toBe(0);
    expect(a.out).toBe(b.out);
    const lines = a.out.trimEnd().split('\n');
    expect(lines[0]).toBe(
      'ORANGE over 5 sentences, 41 candidates, 4 references per sentence (lower is better); ' +
        '95% CI from 200 bootstrap resamples of the sentences, seed 7',
    );
    expect(lines[1]).toMatch(/^metric\s+ORANGE {2}95% CI$/);
    expect(lines).toHaveLength(5);
    const json = JSON.parse((await orange([...argv, '-f', 'json'])).out) as JsonReport;
    json.metrics.forEach((m, i) => {
      const [lower, upper] = m.ci!;
      expect(lower).toBeLessThanOrEqual(m.orange);
      expect(upper).toBeGreaterThanOrEqual(m.orange);
      expect(lines[2 + i]).toBe(
        `${m.name.padEnd(7)}  ${m.orange.toFixed(4)}  [${lower.toFixed(4)}, ${upper.toFixed(4)}]`,
      );
    });
    const other = await orange([...argv.slice(0, -1), '8']);
    expect(other.out).not.toBe(a.out);
  });

  it('draws a progress line on a terminal stderr only, and none with -q', async () => {
    const argv = ['--nbest', NBEST, '-r', ...REFS, '-m', 'wer', '-b', '0'];
    for (const quiet of [false, true]) {
      let err = '';
      const stderr = { write: (t: string) => (err += t), isTTY: true };
      const code = await runOrangeCommand(quiet ? [...argv, '-q'] : argv, { stdout: { write: () => true }, stderr });
      expect(code).toBe(0);
      if (quiet) expect(err).toBe('');
      else expect(err).toMatch(/palette orange.*41 hyps.*\n$/s);
    }
  });

  it('is reachable as `palette orange` and prints its help', async () => {
    const { code, out } = await captureCli(run, ['orange', '--help']);
    expect(code).toBe(0);
    expect(out).toMatch(/^usage: palette orange --nbest FILE -r REF REF/);
  });
});

describe('palette orange: ties', () => {
  it('references that tie with each other and with a candidate share their ranks', async () => {
    // Sentence 0: both references "a b c" → each scores perfectly against the other, as does the candidate
    // "a b c" against either set; "x" scores worst. Ranks 1–3 are shared by the three equal texts (2 each), "x" is
    // 4th: the term is 2 / (N + 1) = 2 / 3. Sentence 1: "d e" / "d f" (one word in common); the candidate "d e" is
    // perfect against {"d e"} and half against {"d f"}, i.e. better than both references → ranks 2.5, 2.5 over
    // N + 1 = 2: 1.25. ORANGE = (2/3 + 1.25) / 2 for every metric, whatever its direction.
    const r = await orange(['--nbest', f('good'), '-r', f('ref-a'), f('ref-b'), '-m', 'bleus1', 'rouge-l', 'wer', 'per', '-b', '0', '-f', 'json']);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.out) as JsonReport;
    for (const m of report.metrics) expect(m.orange).toBeCloseTo((2 / 3 + 1.25) / 2, 15);
  });
});

describe('palette orange: bad input → exit 2, one line naming the file and line', () => {
  const cases: [string, string[], RegExp][] = [
    ['one reference file', ['--nbest', 'GOOD', '-r', 'REF_A', '-m', 'wer'], /REF_A: ORANGE needs at least 2 references per sentence \(got 1 reference file\)/],
    ['references of different lengths', ['--nbest', 'GOOD', '-r', 'REF_A', 'REF_SHORT', '-m', 'wer'], /REF_SHORT: has 1 lines but .*ref-a has 2/],
    ['an empty reference line', ['--nbest', 'GOOD', '-r', 'REF_A', 'REF_EMPTY', '-m', 'wer'], /REF_EMPTY:2: empty reference/],
    ['a malformed n-best line', ['--nbest', 'MALFORMED', '-r', 'REF_A', 'REF_B', '-m', 'wer'], /MALFORMED:2: malformed n-best line: 2 fields/],
    ['an id without a reference', ['--nbest', 'NO_REF', '-r', 'REF_A', 'REF_B', '-m', 'wer'], /NO_REF:2: malformed n-best line: id 2 has no reference/],
    ['an n-best list without candidates', ['--nbest', 'EMPTY', '-r', 'REF_A', 'REF_B', '-m', 'wer'], /EMPTY: the n-best list has no candidate/],
    ['a missing file', ['--nbest', 'MISSING', '-r', 'REF_A', 'REF_B', '-m', 'wer'], /MISSING/],
    ['an unknown metric', ['--nbest', 'GOOD', '-r', 'REF_A', 'REF_B', '-m', 'bleus21'], /unknown ORANGE metric "bleus21" \(orders run from 1 to 20\)/],
    ['a bad metric group', ['--nbest', 'GOOD', '-r', 'REF_A', 'REF_B', '-m', 'rouge-w-0.5-1.2'], /unknown ORANGE metric "rouge-w-0.5-1.2"/],
    ['no metric', ['--nbest', 'GOOD', '-r', 'REF_A', 'REF_B'], /a metric is required/],
    ['no n-best list', ['-r', 'REF_A', 'REF_B', '-m', 'wer'], /the n-best list is required/],
    ['a bad --bootstrap', ['--nbest', 'GOOD', '-r', 'REF_A', 'REF_B', '-m', 'wer', '--bootstrap', '-3'], /--bootstrap must be an integer in 0\.\.1000000/],
    ['a bad --format', ['--nbest', 'GOOD', '-r', 'REF_A', 'REF_B', '-m', 'wer', '-f', 'xml'], /--format must be text or json/],
  ];
  const files: Record<string, string> = {
    GOOD: 'good', REF_A: 'ref-a', REF_B: 'ref-b', REF_SHORT: 'ref-short', REF_EMPTY: 'ref-empty-line',
    MALFORMED: 'malformed', NO_REF: 'no-reference', EMPTY: 'empty', MISSING: 'does-not-exist',
  };
  it.each(cases)('%s', async (_, argv, message) => {
    const resolved = argv.map((a) => (a in files ? f(files[a]) : a));
    const expected = new RegExp(
      message.source.replace(/[A-Z][A-Z_]+/g, (k) => (k in files ? f(files[k]).replace(/[.*+?^${}()|[\]\\]/g, '\\$&') : k)),
    );
    expectInputError(await orange(resolved), 'orange', expected);
  });
});
