import { afterAll, describe, expect, it } from 'vitest';
import { run, type CliIo } from '../src/cli/main.js';
import { createProgress, formatCount, formatDuration, renderProgress } from '../src/cli/progress.js';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A stream double recording what is written; `isTTY` as given. */
function sink(isTTY: boolean | undefined): { write(t: string): boolean; isTTY?: boolean; text: string[] } {
  const text: string[] = [];
  return { write: (t: string) => (text.push(t), true), ...(isTTY === undefined ? {} : { isTTY }), text };
}

/** A clock the test moves by hand. */
function clock(): { now: () => number; advance(ms: number): void } {
  let t = 1000;
  return { now: () => t, advance: (ms) => void (t += ms) };
}

describe('renderProgress', () => {
  it('shows count, rate, percentage and ETA', () => {
    expect(renderProgress('palette nbest', 'hyps', { count: 250_000, elapsedMs: 2000, fraction: 0.25 })).toBe(
      'palette nbest: 250.0k hyps  125.0k hyps/s  25%  ETA 0:06',
    );
  });
  it('omits the rate before any time has passed and the ETA when the fraction is unknown', () => {
    expect(renderProgress('p', 'hyps', { count: 0, elapsedMs: 0 })).toBe('p: 0 hyps');
    expect(renderProgress('p', 'lines', { count: 1234, elapsedMs: 500 })).toBe('p: 1234 lines  2468 lines/s');
  });
  it('shows an unknown ETA at 0 % and clamps the fraction', () => {
    expect(renderProgress('p', 'hyps', { count: 5, elapsedMs: 1000, fraction: 0 })).toBe('p: 5 hyps  5 hyps/s  0%  ETA --:--');
    expect(renderProgress('p', 'hyps', { count: 5, elapsedMs: 1000, fraction: 1.5 })).toBe('p: 5 hyps  5 hyps/s  100%  ETA 0:00');
  });
  it('formats counts and durations', () => {
    expect([formatCount(999), formatCount(12_345), formatCount(1_234_567), formatCount(2.5e9)]).toEqual(['999', '12.3k', '1.23M', '2.50G']);
    expect([formatDuration(0), formatDuration(61.4), formatDuration(3725), formatDuration(NaN)]).toEqual(['0:00', '1:01', '1:02:05', '--:--']);
  });
});

describe('createProgress', () => {
  it('writes nothing when the stream is not a TTY', () => {
    for (const isTTY of [undefined, false]) {
      const s = sink(isTTY);
      const p = createProgress(s, { label: 'p', unit: 'hyps' });
      p.update(10, 0.5);
      p.done();
      p.clear();
      expect(p.enabled).toBe(false);
      expect(s.text).toEqual([]);
    }
  });
  it('writes nothing when quiet, even on a TTY', () => {
    const s = sink(true);
    const p = createProgress(s, { label: 'p', unit: 'hyps', quiet: true });
    p.update(10);
    p.done();
    expect(s.text).toEqual([]);
  });
  it('redraws in place at most once per interval and ends with a summary line', () => {
    const s = sink(true);
    const c = clock();
    const p = createProgress(s, { label: 'p', unit: 'hyps', intervalMs: 100, now: c.now });
    p.update(1); // first update draws
    c.advance(50);
    p.update(2); // too soon
    c.advance(50);
    p.update(3); // 100 ms after the first draw
    c.advance(100);
    p.done();
    expect(s.text).toEqual(['\r\x1b[Kp: 1 hyps', '\r\x1b[Kp: 3 hyps  30 hyps/s', '\r\x1b[Kp: 3 hyps  15 hyps/s', '\n']);
  });
  it('with a delay, a run shorter than the delay draws nothing at all; a longer one draws after it', () => {
    const s = sink(true);
    const c = clock();
    const short = createProgress(s, { label: 'p', unit: 'systems', delayMs: 1000, now: c.now });
    short.update(1, 0.5);
    c.advance(900);
    short.update(2, 1);
    short.done();
    expect(s.text).toEqual([]);
    const long = createProgress(s, { label: 'p', unit: 'systems', delayMs: 1000, now: c.now });
    long.update(1, 0.25);
    c.advance(1000);
    long.update(2, 0.5);
    c.advance(1000);
    long.done();
    expect(s.text).toEqual(['\r\x1b[Kp: 2 systems  2 systems/s  50%  ETA 0:01', '\r\x1b[Kp: 2 systems  1 systems/s  50%  ETA 0:02', '\n']);
  });
  it('clear erases a drawn line only', () => {
    const s = sink(true);
    const p = createProgress(s, { label: 'p', unit: 'hyps', now: () => 0 });
    p.clear();
    expect(s.text).toEqual([]);
    p.update(1);
    p.clear();
    expect(s.text).toEqual(['\r\x1b[Kp: 1 hyps', '\r\x1b[K']);
  });
});

describe('palette nbest progress', () => {
  const dir = mkdtempSync(join(tmpdir(), 'palette-progress-'));
  writeFileSync(join(dir, 'ref'), 'a b c\nd e f\n');
  writeFileSync(join(dir, 'nbest'), '0 ||| a b c ||| d= 0 ||| 1\n1 ||| d e ||| d= 0 ||| 1\n');
  const io = (isTTY: boolean): { io: CliIo; err: string[] } => {
    const err = sink(isTTY);
    return { io: { stdout: { write: () => true }, stderr: err, env: {} }, err: err.text };
  };
  const argv = ['nbest', '--nbest', join(dir, 'nbest'), '-r', join(dir, 'ref'), '-m', 'bleu', '--stats', join(dir, 'out')];

  it('is silent on a non-TTY stderr', async () => {
    const { io: x, err } = io(false);
    expect(await run(argv, x)).toBe(0);
    expect(err).toEqual([]);
  });
  it('ends with a 100 % summary line on a TTY stderr', async () => {
    const { io: x, err } = io(true);
    expect(await run(argv, x)).toBe(0);
    expect(err.join('')).toMatch(/palette nbest: 2 hyps .*100%  ETA 0:00\n$/);
  });
  it('is silent with -q even on a TTY stderr', async () => {
    const { io: x, err } = io(true);
    expect(await run([...argv, '-q'], x)).toBe(0);
    expect(err).toEqual([]);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
});

describe('palette score --paired-bs progress', () => {
  const SAMPLE = new URL('../samples/wmt17-en-de/', import.meta.url).pathname;
  const argv = ['score', `${SAMPLE}ref.de`, '-i', ...['LIUM-NMT.4900', 'online-B.0', 'uedin-nmt.4722'].map((s) => `${SAMPLE}sys/${s}.de`), '-m', 'bleu', '--paired-bs', '--paired-bs-n', '50', '-f', 'text'];
  const runWith = async (isTTY: boolean): Promise<{ out: string; err: string }> => {
    const err = sink(isTTY);
    let out = '';
    const code = await run(argv, { stdout: { write: (t: string) => (out += t) }, stderr: err, env: {} });
    expect(code).toBe(0);
    return { out, err: err.text.join('') };
  };
  it('prints the same table whether stderr is a terminal or not; on a terminal only a finished line, if any', async () => {
    const plain = await runWith(false);
    const tty = await runWith(true);
    expect(tty.out).toBe(plain.out);
    // The run may or may not outlast the one-second delay on a loaded machine; either way nothing but the line.
    const progress = tty.err.replace('palette: Found 3 systems.\n', '');
    expect(progress).toMatch(/^(|\r\x1b\[Kpalette score: .*\r\x1b\[Kpalette score: 2 systems .*100%  ETA 0:00\n)$/s);
  });
});

describe('palette report and palette correlate -m progress', () => {
  const SAMPLE = new URL('../samples/wmt17-en-de/', import.meta.url).pathname;
  const SYSTEMS = ['LIUM-NMT.4900', 'online-B.0', 'uedin-nmt.4722'].map((s) => `${SAMPLE}sys/${s}.de`);
  const dir = mkdtempSync(join(tmpdir(), 'palette-progress-report-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const runWith = async (argv: string[], isTTY: boolean): Promise<{ out: string; err: string }> => {
    const err = sink(isTTY);
    let out = '';
    const code = await run(argv, { stdout: { write: (t: string) => (out += t) }, stderr: err, env: {} });
    expect(code).toBe(0);
    return { out, err: err.text.join('') };
  };
  /** A progress line that a run may draw on a terminal once it passes one second, ending with its 100 % line. */
  const maybeProgress = (label: string): string => `(|\\r\\x1b\\[K${label}: .*\\r\\x1b\\[K${label}: \\d+ steps .*100%  ETA 0:00\\n)`;

  it('report: the same file with a terminal or not; no line off a terminal or with -q; on a terminal only a finished line, if any', async () => {
    const argv = (out: string): string[] => ['report', `${SAMPLE}ref.de`, '-i', ...SYSTEMS, '-m', 'bleu', 'chrf', '--bootstrap', '100', '--paired-bs', '--paired-bs-n', '100', '-o', join(dir, out)];
    const plain = await runWith(argv('plain.html'), false);
    const tty = await runWith(argv('tty.html'), true);
    const quiet = await runWith([...argv('quiet.html'), '-q'], true);
    const html = (name: string): string => readFileSync(join(dir, name), 'utf8');
    expect(html('tty.html')).toBe(html('plain.html'));
    expect(html('quiet.html')).toBe(html('plain.html'));
    expect(plain.err).toMatch(/^palette report: wrote \S+plain\.html \(\d+ bytes\)\n$/);
    expect(quiet.err).toBe('');
    expect(tty.err).toMatch(new RegExp(`^${maybeProgress('palette report')}palette report: wrote \\S+tty\\.html \\(\\d+ bytes\\)\\n$`, 's'));
  });

  it('correlate -m: the same output with a terminal or not; nothing on stderr off a terminal or with -q', async () => {
    const human = join(dir, 'human.tsv');
    writeFileSync(human, ['system\tscore', ...SYSTEMS.map((s, k) => `${s.split('/').pop()!.replace(/\.de$/, '')}\t${k}`)].join('\n') + '\n');
    const argv = ['correlate', '-m', 'bleu', 'chrf', '-r', `${SAMPLE}ref.de`, '-i', ...SYSTEMS, '--human', human, '--bootstrap', '200'];
    const plain = await runWith(argv, false);
    const tty = await runWith(argv, true);
    const quiet = await runWith([...argv, '-q'], true);
    expect(tty.out).toBe(plain.out);
    expect(quiet.out).toBe(plain.out);
    expect(plain.err).toBe('');
    expect(quiet.err).toBe('');
    expect(tty.err).toMatch(new RegExp(`^${maybeProgress('palette correlate')}$`, 's'));
  });
});
