/**
 * `palette extractor`, the drop-in for Moses MERT's `extractor`: FEATSTAT and SCORESTAT byte-identical to Moses'
 * on moses-regression-tests mert.extractor-txt (runs 1–5, each merged with the previous run's files as Moses' MERT
 * loop does) and mert.extractor-dups (with and without duplicates); Moses' flags, short letters and default file
 * names; the scorer configuration; and bad input (exit 2, one line naming file and line, no output file).
 * Fixtures: test/fixtures/extractor and test/fixtures/nbest (SOURCE.md there).
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../src/cli/main.js';
import { runExtractorCommand } from '../src/cli/extractor/command.js';
import { MosesBleu } from '../src/metrics/bleu/moses-metric.js';
import { captureCli, expectInputError } from './helpers/cli.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const FIX = join(HERE, 'fixtures', 'extractor');
const NBEST_FIX = join(HERE, 'fixtures', 'nbest');

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'palette-extractor-'));
  writeFileSync(join(dir, 'nbest.1'), readFileSync(join(NBEST_FIX, 'extractor-txt.nbest.1')));
  for (let n = 2; n <= 5; n++) writeFileSync(join(dir, `nbest.${n}`), gunzipSync(readFileSync(join(FIX, `nbest.${n}.gz`))));
});
afterAll(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

const REF = join(NBEST_FIX, 'extractor-txt.reference');
const DUPS = join(NBEST_FIX, 'extractor-dups.nbest');
const DUPS_REF = join(NBEST_FIX, 'extractor-dups.reference');

/** Moses' FEATSTAT or SCORESTAT of mert.extractor-txt run `n`. */
function truth(n: number, kind: 'features' | 'scores'): string {
  return gunzipSync(readFileSync(join(FIX, `run.${n}.${kind}.gz`))).toString('utf8');
}

const extractor = (argv: readonly string[]) => captureCli(runExtractorCommand, argv);

/** Runs the extractor writing `name.sc` / `name.ff` in the temporary folder and returns both texts. */
async function extract(name: string, argv: readonly string[]): Promise<{ scores: string; features: string }> {
  const sc = join(dir, `${name}.sc`);
  const ff = join(dir, `${name}.ff`);
  const r = await extractor([...argv, '--scfile', sc, '--ffile', ff]);
  expect(r).toEqual({ code: 0, out: '', err: '' });
  return { scores: readFileSync(sc, 'utf8'), features: readFileSync(ff, 'utf8') };
}

describe('palette extractor: byte-identical to Moses extractor', () => {
  it('mert.extractor-txt runs 1–5, each merging the previous run: FEATSTAT and SCORESTAT', async () => {
    for (let n = 1; n <= 5; n++) {
      const argv = ['--nbest', join(dir, `nbest.${n}`), '--reference', REF];
      if (n > 1) argv.push('--prev-scfile', join(dir, `run${n - 1}.sc`), '--prev-ffile', join(dir, `run${n - 1}.ff`));
      const got = await extract(`run${n}`, argv);
      expect(got.features, `run ${n} FEATSTAT`).toBe(truth(n, 'features'));
      expect(got.scores, `run ${n} SCORESTAT`).toBe(truth(n, 'scores'));
    }
  });

  it("gzip n-best lists (Moses' MERT loop writes run1.best100.out.gz) and previous files are read as plain ones", async () => {
    const gz = join(dir, 'run1.best100.out.gz');
    writeFileSync(gz, gzipSync(readFileSync(join(dir, 'nbest.1'))));
    for (const workers of ['1', '2']) {
      const got = await extract(`gz${workers}`, ['--nbest', gz, '--reference', REF, '--workers', workers, '--task-size', '30000']);
      expect(got.features).toBe(truth(1, 'features'));
      expect(got.scores).toBe(truth(1, 'scores'));
    }
    // Previous runs' files may be gzip too (Moses reads run1.scores.dat.gz through its gzip stream).
    writeFileSync(join(dir, 'run1.sc.gz'), gzipSync(readFileSync(join(dir, 'run1.sc'))));
    writeFileSync(join(dir, 'run1.ff.gz'), gzipSync(readFileSync(join(dir, 'run1.ff'))));
    const merged = await extract('gz-prev', [
      '--nbest', join(dir, 'nbest.2'), '--reference', REF, '--prev-scfile', join(dir, 'run1.sc.gz'), '--prev-ffile', join(dir, 'run1.ff.gz'),
    ]);
    expect(merged.features).toBe(truth(2, 'features'));
    expect(merged.scores).toBe(truth(2, 'scores'));
    const broken = join(dir, 'broken.gz');
    writeFileSync(broken, readFileSync(gz).subarray(0, 2000));
    const r = await extractor(['--nbest', broken, '--reference', REF, '-S', join(dir, 'gzbad.sc'), '-F', join(dir, 'gzbad.ff')]);
    expectInputError(r, 'extractor', /broken\.gz: cannot decompress the gzip file: /);
    expect(existsSync(join(dir, 'gzbad.sc')) || existsSync(join(dir, 'gzbad.ff'))).toBe(false);
    const prevBroken = await extractor([
      '--nbest', join(dir, 'nbest.2'), '--reference', REF, '-R', broken, '-E', join(dir, 'run1.ff.gz'), '-S', join(dir, 'gzbad.sc'), '-F', join(dir, 'gzbad.ff'),
    ]);
    expectInputError(prevBroken, 'extractor', /broken\.gz: cannot decompress the gzip file: /);
  });

  it("Moses' short letters (-n -r -S -F -R -E -s -c) give the same files", async () => {
    const sc = join(dir, 'short.sc');
    const ff = join(dir, 'short.ff');
    const r = await extractor([
      '-s', 'BLEU', '-c', 'reflen:closest,case:true', '-n', join(dir, 'nbest.2'), '-r', REF, '-S', sc, '-F', ff,
      '-R', join(dir, 'run1.sc'), '-E', join(dir, 'run1.ff'),
    ]);
    expect(r).toEqual({ code: 0, out: '', err: '' });
    expect(readFileSync(ff, 'utf8')).toBe(truth(2, 'features'));
    expect(readFileSync(sc, 'utf8')).toBe(truth(2, 'scores'));
  });

  it('several previous runs, comma-separated, are loaded in order (runs 1 and 2 before list 3 = Moses run 3 on run 2 alone)', async () => {
    // Run 2's files already hold run 1's candidates, so loading run 1 too only adds duplicates, which are removed:
    // the same candidates as run 3; Moses' swap-with-last removal orders them differently, so compare as sets.
    const got = await extract('prev2', [
      '--nbest', join(dir, 'nbest.3'), '--reference', REF,
      '--prev-scfile', `${join(dir, 'run1.sc')},${join(dir, 'run2.sc')}`, '--prev-ffile', `${join(dir, 'run1.ff')},${join(dir, 'run2.ff')}`,
    ]);
    const pairs = (features: string, scores: string): string[] => {
      const f = features.split('\n').filter((l) => !l.startsWith('FEATURES_TXT'));
      const s = scores.split('\n').filter((l) => !l.startsWith('SCORES_TXT'));
      expect(f.length).toBe(s.length);
      return f.map((l, i) => `${l}|${s[i]}`).sort();
    };
    expect(pairs(got.features, got.scores)).toEqual(pairs(truth(3, 'features'), truth(3, 'scores')));
  });

  it('a pooled run (2 threads, small tasks) writes the bytes of the in-thread run', async () => {
    const got = await extract('pooled', ['--nbest', join(dir, 'nbest.3'), '--reference', REF, '--workers', '2', '--task-size', '20000']);
    const one = await extract('one', ['--nbest', join(dir, 'nbest.3'), '--reference', REF, '--workers', '1']);
    expect(got).toEqual(one);
    expect(got.features.split('\n').filter((l) => l.startsWith('FEATURES_TXT_BEGIN_0'))).toHaveLength(10);
  });

  it('mert.extractor-dups: duplicates removed by default, kept with --allow-duplicates / -d', async () => {
    const dflt = await extract('dups', ['--nbest', DUPS, '--reference', DUPS_REF]);
    expect(dflt.features).toBe(readFileSync(join(FIX, 'dups.features.default'), 'utf8'));
    expect(dflt.scores).toBe(readFileSync(join(NBEST_FIX, 'extractor-dups.scores.default'), 'utf8'));
    for (const flag of ['--allow-duplicates', '-d']) {
      const allow = await extract('dups-allow', ['--nbest', DUPS, '--reference', DUPS_REF, flag]);
      expect(allow.features).toBe(readFileSync(join(FIX, 'dups.features.allow'), 'utf8'));
      expect(allow.scores).toBe(readFileSync(join(NBEST_FIX, 'extractor-dups.scores.allow'), 'utf8'));
    }
  });

  it("Moses' default output files: statscore.data and features.data in the working folder", async () => {
    const cwd = process.cwd();
    const here = mkdtempSync(join(dir, 'cwd-'));
    try {
      process.chdir(here);
      const r = await extractor(['--nbest', DUPS, '--reference', DUPS_REF]);
      expect(r).toEqual({ code: 0, out: '', err: '' });
      expect(readdirSync(here).sort()).toEqual(['features.data', 'statscore.data']);
      expect(readFileSync(join(here, 'statscore.data'), 'utf8')).toBe(readFileSync(join(NBEST_FIX, 'extractor-dups.scores.default'), 'utf8'));
      expect(readFileSync(join(here, 'features.data'), 'utf8')).toBe(readFileSync(join(FIX, 'dups.features.default'), 'utf8'));
    } finally {
      process.chdir(cwd);
    }
  });
});

describe('palette extractor: scorer types and configuration', () => {
  /** Rows of a SCORES_TXT text. */
  const rows = (text: string): number[][] =>
    text.split('\n').filter((l) => l !== '' && !l.startsWith('SCORES_TXT')).map((l) => l.trim().split(' ').map(Number));

  it('--scconfig case:false lowercases, reflen:shortest|average chooses the reference length (two references)', async () => {
    const nbest = join(dir, 'case.nbest');
    const r1 = join(dir, 'case.ref1');
    const r2 = join(dir, 'case.ref2');
    writeFileSync(nbest, '0 ||| The Cat sat on THE mat ||| lm= -1 ||| -1\n0 ||| the cat sat ||| lm= -2 ||| -2\n1 ||| A Dog barked ||| lm= -3 ||| -3\n');
    writeFileSync(r1, 'the cat sat on the mat today\na dog barked loudly at night\n');
    writeFileSync(r2, 'The Cat sat down\nA dog\n');
    const refs = `${r1},${r2}`;
    const mixed = rows((await extract('case-mixed', ['-n', nbest, '-r', refs, '--allow-duplicates'])).scores);
    const lower = rows((await extract('case-lower', ['-n', nbest, '-r', refs, '-c', 'case:false', '-d'])).scores);
    expect(lower).not.toEqual(mixed);
    const metricRows = (options: ConstructorParameters<typeof MosesBleu>[0]): number[][] => {
      const metric = new MosesBleu(options);
      const refLines = [r1, r2].map((f) => readFileSync(f, 'utf8').trimEnd().split('\n'));
      const hyps = ['The Cat sat on THE mat', 'the cat sat', 'A Dog barked'];
      const segments = [0, 0, 1];
      return hyps.map((h, i) => Array.from(metric.segmentStats([h], metric.prepareReferences(refLines.map((r) => [r[segments[i]]])))));
    };
    expect(mixed).toEqual(metricRows({}));
    expect(lower).toEqual(metricRows({ lowercase: true }));
    for (const reflen of ['shortest', 'average'] as const) {
      const got = rows((await extract(`reflen-${reflen}`, ['-n', nbest, '-r', refs, '-c', `reflen:${reflen}`, '-d'])).scores);
      expect(got, reflen).toEqual(metricRows({ refLength: reflen }));
    }
    // The three strategies differ on this list (sentence 0: references of 7 and 4 words, candidates of 6 and 3).
    const lengths = (reflen: string): Promise<number[]> =>
      extract(`reflen-${reflen}-column`, ['-n', nbest, '-r', refs, '-c', `reflen:${reflen}`, '-d']).then((e) => rows(e.scores).map((r) => r[8]));
    expect(await lengths('closest')).toEqual([7, 4, 2]);
    expect(await lengths('shortest')).toEqual([4, 4, 2]);
    expect(await lengths('average')).toEqual([5, 5, 4]);
  });

  it('interpolated BLEU,BLEU: each row twice, header "18 BLEU,BLEU"; weights must match the scorers', async () => {
    const one = await extract('interp-1', ['-n', DUPS, '-r', DUPS_REF]);
    const two = await extract('interp-2', ['-n', DUPS, '-r', DUPS_REF, '-s', 'BLEU,BLEU', '-c', 'weights:0.7+0.3']);
    expect(two.scores.split('\n')[0]).toBe('SCORES_TXT_BEGIN_0 0 2 18 BLEU,BLEU');
    expect(rows(two.scores)).toEqual(rows(one.scores).map((r) => [...r, ...r]));
    expect(two.features).toBe(one.features);
    const r = await extractor(['-n', DUPS, '-r', DUPS_REF, '-s', 'BLEU,BLEU', '-c', 'weights:1', '-S', join(dir, 'w.sc'), '-F', join(dir, 'w.ff')]);
    expectInputError(r, 'extractor', /weights:1: 1 weight\(s\) for 2 scorers/);
  });
});

describe('palette extractor --sctype PER: Moses PerScorer statistics', () => {
  const rows = (text: string): number[][] =>
    text.split('\n').filter((l) => l !== '' && !l.startsWith('SCORES_TXT')).map((l) => l.trim().split(' ').map(Number));

  it("mert.extractor-txt list 1: every row is Palette PER's (Python split = Moses' split on this ASCII text)", async () => {
    const got = await extract('per', ['-n', join(dir, 'nbest.1'), '-r', REF, '-s', 'PER', '-d']);
    expect(got.scores.split('\n')[0]).toBe('SCORES_TXT_BEGIN_0 0 100 3 PER');
    expect(got.features).toBe(truth(1, 'features'));
    const { Per } = await import('../src/metrics/per/per.js');
    const per = new Per({ tokenize: 'none' });
    const refs = readFileSync(REF, 'utf8').trimEnd().split('\n');
    const lines = readFileSync(join(dir, 'nbest.1'), 'utf8').trimEnd().split('\n');
    const hyps = lines.map((l) => l.split('|||')[1]);
    const segments = lines.map((l) => Number(l.split('|||')[0]));
    const expected = hyps.map((h, i) => Array.from(per.segmentStats([h], per.prepareReferences([[refs[segments[i]]]]))));
    expect(rows(got.scores)).toEqual(expected);
  });

  it("Moses' words: a tab stays inside a word, case:false lowers ASCII letters only; BLEU,PER side by side", async () => {
    const nbest = join(dir, 'per.nbest');
    const ref = join(dir, 'per.ref');
    writeFileSync(nbest, '0 ||| Élan a\tb C c ||| lm= 1 ||| 1\n');
    writeFileSync(ref, 'élan a b c c\n');
    // Mixed case: a\tb matches nothing, C is not c: correct = 1 (c), 4 words, reference of 5.
    expect(rows((await extract('per-mixed', ['-n', nbest, '-r', ref, '-s', 'PER'])).scores)).toEqual([[1, 4, 5]]);
    // case:false: C -> c matches the second c; É is not ASCII and stays.
    expect(rows((await extract('per-lower', ['-n', nbest, '-r', ref, '-s', 'PER', '-c', 'case:false'])).scores)).toEqual([[2, 4, 5]]);
    const both = await extract('bleu-per', ['-n', nbest, '-r', ref, '-s', 'BLEU,PER']);
    const bleu = await extract('bleu-only', ['-n', nbest, '-r', ref]);
    expect(both.scores.split('\n')[0]).toBe('SCORES_TXT_BEGIN_0 0 1 12 BLEU,PER');
    expect(rows(both.scores)).toEqual([[...rows(bleu.scores)[0], 1, 4, 5]]);
  });

  it('more than one reference is refused, as Moses refuses it', async () => {
    const r = await extractor(['-n', DUPS, '-r', `${DUPS_REF},${DUPS_REF}`, '-s', 'PER', '-S', join(dir, 'p.sc'), '-F', join(dir, 'p.ff')]);
    expectInputError(r, 'extractor', /--sctype PER only supports a single reference \(got 2\)/);
    expect(existsSync(join(dir, 'p.sc'))).toBe(false);
  });
});

describe('palette extractor --sctype WER: Moses CderScorer (no long jumps) statistics', () => {
  const rows = (text: string): number[][] =>
    text.split('\n').filter((l) => l !== '' && !l.startsWith('SCORES_TXT')).map((l) => l.trim().split(' ').map(Number));

  it('mert.extractor-txt list 1: edits and reference length = S+D+I and H+S+D of Palette WER; generic path = fast path', async () => {
    const got = await extract('wer', ['-n', join(dir, 'nbest.1'), '-r', REF, '-s', 'WER', '-d']);
    expect(got.scores.split('\n')[0]).toBe('SCORES_TXT_BEGIN_0 0 100 2 WER');
    const { Wer } = await import('../src/metrics/wer/wer.js');
    const wer = new Wer({ tokenize: 'none' });
    const refs = readFileSync(REF, 'utf8').trimEnd().split('\n');
    const lines = readFileSync(join(dir, 'nbest.1'), 'utf8').trimEnd().split('\n');
    const expected = lines.map((l) => {
      const [id, hyp] = l.split('|||');
      const [h, sub, del, ins] = wer.segmentStats([hyp], wer.prepareReferences([[refs[Number(id)]]]));
      return [sub + del + ins, h + sub + del];
    });
    expect(rows(got.scores)).toEqual(expected);
    // The text is lower-cased already: case:false goes through the metric's own rows, not the token stage.
    const lower = await extract('wer-lower', ['-n', join(dir, 'nbest.1'), '-r', REF, '-s', 'WER', '-d', '-c', 'case:false']);
    expect(lower.scores).toBe(got.scores);
  });

  it("several references: Moses' choice (first, unless a later one scores a higher integer), not the fewest edits", async () => {
    const nbest = join(dir, 'wer.nbest');
    const refs = [1, 2, 3].map((k) => join(dir, `wer.ref${k}`));
    writeFileSync(nbest, '0 ||| a b c ||| lm= 1 ||| 1\n1 ||| a b c ||| lm= 1 ||| 1\n');
    writeFileSync(refs[0], 'a b d e\na b d e\n');
    writeFileSync(refs[1], 'a b c d\na b c d\n');
    writeFileSync(refs[2], 'x y z w v\na b c\n');
    const got = await extract('wer-refs', ['-n', nbest, '-r', refs.join(','), '-s', 'WER', '-d']);
    // Sentence 0: 2 edits of 4 (score 0), 1 of 4 (0), 5 of 5 (0): the first. Sentence 1: the third matches (1).
    expect(rows(got.scores)).toEqual([[2, 4], [0, 3]]);
    const lower = await extract('wer-refs-lower', ['-n', nbest, '-r', refs.join(','), '-s', 'WER', '-d', '-c', 'case:false']);
    expect(lower.scores).toBe(got.scores);
  });

  it('case:false lowers ASCII letters only; WER,BLEU side by side', async () => {
    const nbest = join(dir, 'wer-case.nbest');
    const ref = join(dir, 'wer-case.ref');
    writeFileSync(nbest, '0 ||| A b É ||| lm= 1 ||| 1\n');
    writeFileSync(ref, 'a b é\n');
    expect(rows((await extract('wer-case-mixed', ['-n', nbest, '-r', ref, '-s', 'WER'])).scores)).toEqual([[2, 3]]);
    expect(rows((await extract('wer-case-lower', ['-n', nbest, '-r', ref, '-s', 'WER', '-c', 'case:false'])).scores)).toEqual([[1, 3]]);
    const both = await extract('wer-bleu', ['-n', nbest, '-r', ref, '-s', 'WER,BLEU']);
    expect(both.scores.split('\n')[0]).toBe('SCORES_TXT_BEGIN_0 0 1 11 WER,BLEU');
    expect(rows(both.scores)[0].slice(0, 2)).toEqual([2, 3]);
  });
});

describe('palette extractor: refused options and bad input', () => {
  const out = (): string[] => ['-S', join(dir, 'bad.sc'), '-F', join(dir, 'bad.ff')];
  const noOutput = (): void => {
    expect(existsSync(join(dir, 'bad.sc'))).toBe(false);
    expect(existsSync(join(dir, 'bad.ff'))).toBe(false);
    expect(readdirSync(dir).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  };
  const base = (): string[] => ['-n', join(dir, 'nbest.1'), '-r', REF, ...out()];

  it.each([
    [['-s', 'TER'], /--sctype TER: Palette does not write Moses' TER statistics \(supported: BLEU/],
    [['-s', 'BLEU,CHRF'], /--sctype CHRF: Palette does not write/],
    [['-s', 'bleu'], /--sctype: unknown scorer type "bleu"/],
    [['-c', 'reflen'], /--scconfig: missing colon in "reflen"/],
    [['-c', 'reflen:longest'], /reflen:longest: unknown reference length strategy/],
    [['-c', 'regtype:max'], /regtype:max: unknown regularisation strategy/],
    [['--binary'], /--binary is not supported/],
    [['--factors', '0|1'], /--factors is not supported/],
    [['--filter', 'cat'], /--filter is not supported/],
    [['-R', 'a,b', '-E', 'a'], /different number of previous score and feature files \(--prev-scfile: 2, --prev-ffile: 1\)/],
    [['-n', 'a,b'], /--nbest with several files is not supported/],
  ])('%j is refused before any file is read', async (extra, message) => {
    expectInputError(await extractor([...base(), ...extra]), 'extractor', message);
    noOutput();
  });

  it('no reference, no n-best list', async () => {
    expectInputError(await extractor(['-n', join(dir, 'nbest.1'), ...out()]), 'extractor', /reference file is not specified/);
    expectInputError(await extractor(['-r', REF, ...out()]), 'extractor', /the n-best list is required/);
    noOutput();
  });

  /** Run 1's files with one edit, written as `bad.prev.sc` / `bad.prev.ff`. */
  function previous(edit: { scores?: (t: string) => string; features?: (t: string) => string }): string[] {
    const sc = join(dir, 'bad.prev.sc');
    const ff = join(dir, 'bad.prev.ff');
    writeFileSync(sc, (edit.scores ?? ((t) => t))(truth(1, 'scores')));
    writeFileSync(ff, (edit.features ?? ((t) => t))(truth(1, 'features')));
    return ['-n', join(dir, 'nbest.2'), '-r', REF, '-R', sc, '-E', ff, ...out()];
  }

  it('features and statistics files whose blocks disagree: file, line and problem; nothing written', async () => {
    // Sentence 3's FEATURES block (line 307 of run 1's FEATSTAT) claims sentence 4.
    let r = await extractor(previous({ features: (t) => t.replace('FEATURES_TXT_BEGIN_0 3 100', 'FEATURES_TXT_BEGIN_0 4 100') }));
    expectInputError(r, 'extractor', /bad\.prev\.ff:307: block 4 is of sentence 4 but block 4 of .*bad\.prev\.sc \(line 307\) is of sentence 3/);
    noOutput();
    // One candidate fewer in sentence 0's SCORES block.
    r = await extractor(previous({ scores: (t) => t.replace('SCORES_TXT_BEGIN_0 0 100 9', 'SCORES_TXT_BEGIN_0 0 99 9').replace(/\n[^\n]*\nSCORES_TXT_END_0/, '\nSCORES_TXT_END_0') }));
    expectInputError(r, 'extractor', /bad\.prev\.ff:1: sentence 0 has 100 candidate\(s\) here but 99 in .*bad\.prev\.sc \(line 1\)/);
    noOutput();
    // A feature value missing on the second candidate line of sentence 0.
    r = await extractor(previous({ features: (t) => t.replace(/\n0 -4\.41356 /, '\n-4.41356 ') }));
    expectInputError(r, 'extractor', /bad\.prev\.ff:3: expected 14 feature values \(the block's header, line 1\), got 13/);
    noOutput();
    // A block whose header gives another feature count.
    r = await extractor(previous({ features: (t) => t.replace('FEATURES_TXT_BEGIN_0 1 100 14', 'FEATURES_TXT_BEGIN_0 1 100 15') }));
    expectInputError(r, 'extractor', /bad\.prev\.ff:103: the block of sentence 1 has 15 features but the first block \(line 1\) has 14/);
    noOutput();
    // The features file stops one block early.
    r = await extractor(previous({ features: (t) => t.slice(0, t.indexOf('FEATURES_TXT_BEGIN_0 9 ')) }));
    expectInputError(r, 'extractor', /bad\.prev\.sc:919: block 10 \(sentence 9\) has no counterpart: .*bad\.prev\.ff has 9 block\(s\)/);
    noOutput();
  });

  it('a bad list line leaves both earlier output files as they were', async () => {
    const sc = join(dir, 'keep.sc');
    const ff = join(dir, 'keep.ff');
    writeFileSync(sc, 'old scores\n');
    writeFileSync(ff, 'old features\n');
    const nbest = join(dir, 'broken.nbest');
    writeFileSync(nbest, `${readFileSync(join(dir, 'nbest.1'), 'utf8')}12 ||| x ||| lm= 1 ||| 1\n`);
    const r = await extractor(['-n', nbest, '-r', REF, '-S', sc, '-F', ff, '--workers', '1']);
    expectInputError(r, 'extractor', /broken\.nbest:1001: /);
    expect(readFileSync(sc, 'utf8')).toBe('old scores\n');
    expect(readFileSync(ff, 'utf8')).toBe('old features\n');
  });
});

describe('palette extractor: command line', () => {
  it('is listed in palette --help and has its own --help', async () => {
    let text = '';
    const io = { stdout: { write: (t: string) => (text += t) }, stderr: { write: () => true } };
    expect(await run(['--help'], io)).toBe(0);
    expect(text).toMatch(/^ {2}extractor Moses MERT extractor drop-in/m);
    text = '';
    expect(await run(['extractor', '--help'], io)).toBe(0);
    expect(text).toMatch(/^usage: palette extractor --nbest FILE --reference REF/);
    expect(text).toMatch(/--prev-scfile, -R FILES|--prev-scfile FILES, -R FILES|-R/);
  });

  it('is dispatched by `palette extractor`', async () => {
    const sc = join(dir, 'main.sc');
    const ff = join(dir, 'main.ff');
    const r = await captureCli(run, ['extractor', '-n', DUPS, '-r', DUPS_REF, '-S', sc, '-F', ff]);
    expect(r).toEqual({ code: 0, out: '', err: '' });
    expect(readFileSync(ff, 'utf8')).toBe(readFileSync(join(FIX, 'dups.features.default'), 'utf8'));
  });
});
