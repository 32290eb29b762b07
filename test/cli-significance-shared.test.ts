/**
 * `palette score --paired-bs / --paired-ar / --confidence` against sacreBLEU 2.6.0's printed output on WMT17 en-de
 * (../shared/golden/sacrebleu/significance.wmt17-en-de.json: `cli_printed` of the paired records, the default JSON
 * table; `cli_text_w2` of the --confidence record). Each record's own sacrebleu command line is run through
 * `palette score` with SACREBLEU_SEED=12345; the only substitutions are the data root (the golden prints paths
 * relative to it) and the version in signatures. Exact string equality. Skips when ../shared is absent.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { run } from '../src/cli/main.js';
import { VERSION } from '../src/version.js';
import { captureCli } from './helpers/cli.js';
import { haveShared, sharedPath } from './helpers/shared-data.js';

const goldenFile = sharedPath('golden/sacrebleu/significance.wmt17-en-de.json');
const present = haveShared('golden/sacrebleu/significance.wmt17-en-de.json');
const dataRoot = sharedPath('data/');

interface Record {
  hyp: string[] | string;
  refs: string[];
  config: { cli: string };
  cli_printed?: string[];
  corpus?: { [metric: string]: { cli_text_w2: string } };
}

const withPaletteVersion = (s: string): string => s.replace(/version:2\.6\.0/g, `version:${VERSION}`);

async function palette(argv: string[], env: { [k: string]: string }): Promise<{ code: number; out: string; err: string }> {
  return captureCli(run, argv, { env });
}

/** The record's command line (`SACREBLEU_SEED=… sacrebleu REF... -i BASELINE SYS2 ... flags`) as palette argv. */
function argvOf(record: Record, extra: string[] = []): string[] {
  const words = record.config.cli.split(/\s+/).filter((w) => !w.startsWith('SACREBLEU_SEED='));
  expect(words[0]).toBe('sacrebleu');
  const hyps = Array.isArray(record.hyp) ? record.hyp : [record.hyp];
  const out: string[] = ['score'];
  for (const w of words.slice(1)) {
    if (w === 'REF...' || w === 'REF') out.push(...record.refs.map((r) => dataRoot + r));
    else if (w === 'BASELINE' || w === 'HYP') out.push(...hyps.slice(0, 1).map((h) => dataRoot + h));
    else if (w === 'SYS2') out.push(...hyps.slice(1).map((h) => dataRoot + h));
    else if (w === '...') continue;
    else out.push(w);
  }
  return [...out, ...extra];
}

describe.skipIf(!present)('palette score significance output = sacreBLEU 2.6.0 (WMT17 en-de)', () => {
  const records = present ? (JSON.parse(readFileSync(goldenFile, 'utf8')) as { records: Record[] }).records : [];

  for (const record of records.filter((r) => r.cli_printed !== undefined)) {
    it(`${record.config.cli.split(' ').slice(-6).join(' ')}`, async () => {
      const { code, out, err } = await palette(argvOf(record), { SACREBLEU_SEED: '12345' });
      expect(err.replace(/^palette: Found \d+ systems\.\n/, '')).toBe('');
      expect(code).toBe(0);
      expect(out.split(dataRoot).join('')).toBe(withPaletteVersion(record.cli_printed!.join('\n')) + '\n');
    }, 60_000);
  }

  const conf = records.find((r) => r.corpus !== undefined);
  it.runIf(conf !== undefined)('--confidence -f text -w 2', async () => {
    const { code, out } = await palette(argvOf(conf!, ['-f', 'text', '-w', '2']), { SACREBLEU_SEED: '12345' });
    expect(code).toBe(0);
    const expected = Object.values(conf!.corpus!).map((c) => withPaletteVersion(c.cli_text_w2));
    // print_single_results right-aligns the lines on their '='.
    const got = out.trimEnd().split('\n').map((l) => l.trimStart());
    expect(got).toEqual(expected);
  }, 60_000);
});
