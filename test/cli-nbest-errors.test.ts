/**
 * `palette nbest` errors: every bad input is exit status 2 with one line naming the file (and line), and no output
 * file is left behind — neither the target nor the temporary file beside it; an existing target is left untouched.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runNbestCommand } from '../src/cli/nbest/command.js';
import { cliRunner } from './helpers/cli.js';

let dir: string;
const f = (name: string): string => join(dir, name);
const GOOD = '0 ||| a b c ||| f= 1 2 ||| -1\n0 ||| a b ||| f= 1 3 ||| -2\n1 ||| d e ||| f= 0 0 ||| -3\n';

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'palette-nbest-err-'));
  writeFileSync(f('ref'), 'a b c\nd e f\n');
  writeFileSync(f('ref-short'), 'a b c\n');
  writeFileSync(f('good'), GOOD);
  // Many good lines first, so that output has been produced before the bad last line is read.
  const many = Array.from({ length: 2000 }, () => '0 ||| a b c ||| f= 1 2 ||| -1\n').join('');
  writeFileSync(f('late-malformed'), `${many}1 ||| d e\n`);
  writeFileSync(f('out-of-order'), '1 ||| d e ||| f= 0 ||| 0\n0 ||| a ||| f= 0 ||| 0\n');
  writeFileSync(f('no-reference'), '0 ||| a ||| f= 0 ||| 0\n2 ||| d e ||| f= 0 ||| 0\n');
  writeFileSync(f('bad-prev'), 'SCORES_TXT_BEGIN_0 0 2 9 BLEU\n1 2 3 4 5 6 7 8 9 \nSCORES_TXT_END_0\n');
  mkdirSync(f('out'));
});

afterAll(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

const nbest = cliRunner([], runNbestCommand);

/** Runs with `--stats out/stats` and checks exit 2, one message matching `message`, and an empty out/ folder. */
async function failsCleanly(argv: string[], message: RegExp): Promise<void> {
  const target = join(f('out'), 'stats');
  const r = await nbest([...argv, '--stats', target]);
  expect(r.code).toBe(2);
  expect(r.out).toBe('');
  expect(r.err).toMatch(/^palette nbest: error: /);
  expect(r.err.trimEnd().split('\n')).toHaveLength(1);
  expect(r.err).toMatch(message);
  expect(readdirSync(f('out'))).toEqual([]);
}

const args = (nbestFile: string, ...rest: string[]): string[] => ['--nbest', f(nbestFile), '-r', f('ref'), '-m', 'bleu', ...rest];

describe('palette nbest: bad input → exit 2, file and line, nothing left behind', () => {
  it('the good input works (control)', async () => {
    const r = await nbest(args('good'));
    expect(r).toEqual({
      code: 0,
      out:
        'SCORES_TXT_BEGIN_0 0 2 9 BLEU\n3 3 2 2 1 1 0 0 3 \n2 2 1 1 0 0 0 0 3 \nSCORES_TXT_END_0\n' +
        'SCORES_TXT_BEGIN_0 1 1 9 BLEU\n2 2 1 1 0 0 0 0 3 \nSCORES_TXT_END_0\n',
      err: '',
    });
  });

  it('malformed n-best line (after output was written to the temporary file)', async () => {
    await failsCleanly(args('late-malformed'), new RegExp(`late-malformed:2001: malformed n-best line: 2 fields`));
  });

  it('ids out of order', async () => {
    await failsCleanly(args('out-of-order'), /out-of-order:2: malformed n-best line: id 0 after id 1/);
  });

  it('an n-best id without a reference segment', async () => {
    await failsCleanly(args('no-reference'), /no-reference:2: .*id 2 has no reference: the references have 2 segment/);
  });

  it('references of different lengths', async () => {
    await failsCleanly(['--nbest', f('good'), '-r', f('ref'), f('ref-short'), '-m', 'bleu'], /ref-short: has 1 lines but/);
  });

  it('unknown metric', async () => {
    await failsCleanly(args('good').slice(0, -1).concat('bleu', 'nosuch'), /unknown metric.*nosuch/);
    await failsCleanly(args('good').slice(0, -1).concat('rouge-x'), /unknown ROUGE metric "rouge-x"/);
  });

  it('sentence scores in SCORES_TXT, bad --workers and --task-size', async () => {
    await failsCleanly(args('good', '--sentence-scores'), /--sentence-scores are not representable in Moses SCORES_TXT/);
    await failsCleanly(args('good', '--workers', '0'), /--workers must be an integer/);
    await failsCleanly(args('good', '--task-size', 'big'), /--task-size must be a number of bytes/);
  });

  it('missing files: n-best, reference, previous statistics', async () => {
    await failsCleanly(args('missing'), /missing: no such file/);
    await failsCleanly(['--nbest', f('good'), '-r', f('nope'), '-m', 'bleu'], /nope: no such file/);
    await failsCleanly(args('good', '--prev-stats', f('gone'), '--allow-duplicates'), /gone: no such file/);
  });

  it('a malformed previous SCORES_TXT file', async () => {
    await failsCleanly(args('good', '--prev-stats', f('bad-prev'), '--allow-duplicates'), /bad-prev:3: the block of sentence 0 opened at line 1 does not end with SCORES_TXT_END_0/);
  });

  it('usage errors: no metric, no n-best, bad format, msgpack to standard output, --prev-stats without features', async () => {
    await failsCleanly(['--nbest', f('good'), '-r', f('ref')], /a metric is required/);
    await failsCleanly(['-r', f('ref'), '-m', 'bleu'], /n-best list is required/);
    await failsCleanly(args('good', '--stats-format', 'xml'), /--stats-format must be moses, json, msgpack/);
    await failsCleanly(args('good', '--prev-stats', f('bad-prev')), /--prev-stats needs --prev-features/);
    const r = await nbest(args('good', '--stats-format', 'msgpack'));
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/msgpack is binary/);
  });

  it('metric flags: palette score’s, with its messages; sacreBLEU’s BLEU flags are refused (bleu is Moses BLEU)', async () => {
    await failsCleanly(args('good', '-m', 'rouge-l', '--rouge-flavor', 'perl'), /--rouge-flavor must be one of rouge155, rouge-score, paper \(got "perl"\)/);
    await failsCleanly(args('good', '-m', 'chrf', '--chrf-word-order', 'x'), /--chrf-word-order must be/);
    // BLEU's own flags; -tok and -lc are also GLEU's, RIBES' and METEOR's (NLTK's token lists), so nbest takes them.
    await failsCleanly(args('good', '-s', 'floor'), /unrecognized option "-s"/);
    await failsCleanly(args('good', '--smooth-value', '0.1'), /unrecognized option "--smooth-value"/);
  });

  it('an output folder that does not exist', async () => {
    const r = await nbest(args('good', '--stats', join(f('nowhere'), 'stats')));
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/nowhere\/stats: cannot write the output file/);
  });

  it('an existing output file is left untouched when the run fails', async () => {
    const target = f('keep');
    writeFileSync(target, 'old');
    const r = await nbest(args('late-malformed', '--stats', target));
    expect(r.code).toBe(2);
    expect(readFileSync(target, 'utf8')).toBe('old');
    expect(readdirSync(dir).filter((n) => n.endsWith('.tmp'))).toEqual([]);
    expect(existsSync(target)).toBe(true);
  });
});
