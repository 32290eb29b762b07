/**
 * The library and `palette score` share one set of defaults: for every metric id the CLI knows (and a member of each
 * ROUGE family), `palette score -m ID` with no other option prints the number the library's class gives with its
 * default options, corpus and per segment. Two references per segment, so that the multi-reference rules (which
 * differ by ROUGE flavor) are exercised too: a default that differs between the two surfaces changes the number.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  Bleu,
  Cer,
  Chrf,
  corpusScore,
  defaultRegistry,
  Gleu,
  Gtm,
  Impact,
  loadParaphraseTable,
  Meteor,
  Nist,
  NpChunk,
  ParaEval,
  Per,
  readLines,
  Ribes,
  Rouge,
  sentenceScores,
  Ter,
  Wer,
  type Metric,
} from '../src/index.js';
import { run } from '../src/cli/main.js';
import { captureCli } from './helpers/cli.js';

const SAMPLE = new URL('../samples/wmt17-en-de/', import.meta.url);
const TABLE = new URL('../samples/paraphrase/en-para.tsv', import.meta.url).pathname;
// Enough segments for stable corpus numbers, few enough for the chunker-based metrics to stay quick.
const N = 40;
const lines = (file: string): string[] => readLines(new URL(file, SAMPLE).pathname).slice(0, N);
const hyps = lines('sys/uedin-nmt.4722.de');
const refStreams = [lines('ref.de'), lines('sys/online-B.0.de')];

const dir = mkdtempSync(join(tmpdir(), 'palette-defaults-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string[]): string => {
  const path = join(dir, name);
  writeFileSync(path, `${text.join('\n')}\n`);
  return path;
};
const hypFile = file('hyp.de', hyps);
const refFiles = refStreams.map((r, k) => file(`ref${k}.de`, r));

/** The library's metric for a CLI id, built the way a library user builds it: the class with default options. */
const LIBRARY: Readonly<Record<string, () => Metric>> = {
  bleu: () => new Bleu(),
  chrf: () => new Chrf(),
  nist: () => new Nist(),
  ter: () => new Ter(),
  wer: () => new Wer(),
  per: () => new Per(),
  cer: () => new Cer(),
  gleu: () => new Gleu(),
  ribes: () => new Ribes(),
  meteor: () => new Meteor(),
  gtm: () => new Gtm(),
  // ParaEval has no default table: both surfaces get the same one, nothing else.
  paraeval: () => new ParaEval({ table: loadParaphraseTable(TABLE) }),
  impact: () => new Impact(),
  npchunk: () => new NpChunk(),
};
/** One member of every ROUGE family `-m` takes, in several spellings. */
const ROUGE_IDS = ['rouge-1', 'rouge2', 'ROUGE-L', 'rougeLsum', 'rouge-w', 'rouge-w-1.5', 'rouge-s4', 'rouge-su4', 'rouge-s*', 'rouge-su*', 'rouge-12'];

/** What `palette score REF REF -i HYP -m id [extra]` prints as JSON, parsed (one object per line with `-sl`). */
async function cli(id: string, extra: string[] = []): Promise<{ score: number }[]> {
  const args = ['score', ...refFiles, '-i', hypFile, '-m', id, '-w', '16', '-f', 'json', '-q', ...extra];
  if (id === 'paraeval') args.push('--paraphrase-table', TABLE);
  const r = await captureCli(run, args);
  expect(r.err).toBe('');
  expect(r.code).toBe(0);
  return extra.includes('-sl') ? r.out.trim().split('\n').map((l) => JSON.parse(l)) : [JSON.parse(r.out)];
}

/** Equal to the 16 decimals the CLI printed. */
function expectPrinted(printed: number, value: number): void {
  expect(Math.abs(printed - value)).toBeLessThanOrEqual(1e-15 * Math.max(1, Math.abs(value)));
}

describe('library defaults = palette score defaults', () => {
  it('every metric id the CLI knows has a library class in this test', () => {
    expect([...defaultRegistry.ids].sort()).toEqual(Object.keys(LIBRARY).sort());
  });

  const cases: [string, () => Metric][] = [
    ...Object.entries(LIBRARY),
    ...ROUGE_IDS.map((id): [string, () => Metric] => [id, () => new Rouge({ type: id })]),
  ];

  it.each(cases)('-m %s: corpus score', async (id, make) => {
    const [printed] = await cli(id);
    expectPrinted(printed.score, corpusScore(make(), hyps, refStreams).score);
  });

  // sacreBLEU's CLI turns effective order on for -sl (its library does not), so BLEU's sentence scores are the one
  // documented difference; every other metric's -sl is the library's sentence score.
  it.each(cases.filter(([id]) => id !== 'bleu'))('-m %s -sl: every segment', async (id, make) => {
    const printed = await cli(id, ['-sl']);
    const library = sentenceScores(make(), hyps, refStreams);
    expect(printed).toHaveLength(N);
    printed.forEach((p, k) => expectPrinted(p.score, library[k].score));
  });

  it('-m bleu -sl is the library BLEU with effective order, as sacreBLEU', async () => {
    const printed = await cli('bleu', ['-sl']);
    const library = sentenceScores(new Bleu({ effectiveOrder: true }), hyps, refStreams);
    printed.forEach((p, k) => expectPrinted(p.score, library[k].score));
  });
});
