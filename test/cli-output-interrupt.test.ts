/**
 * Interrupted runs leave nothing behind: a real `bin/palette` process that gets SIGINT or SIGTERM while it writes its
 * output exits 130 / 143, its temporary `.NAME.PID.RAND.tmp` is gone and an existing output file is untouched —
 * for `palette nbest --stats` (in-thread, with a worker pool, and while `--prev-stats` writes its merge), for `palette report -o` (interrupted while it
 * computes), and for the output-file helper itself in a child that holds a temporary file open (what `report` does
 * while it writes), including a signal that arrives during a synchronous stretch and a host with its own listener.
 *
 * These spawn the compiled CLI: after changing src/, rebuild dist/ (`npm run build:ts`).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { constants, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = join(root, 'bin', 'palette');
const dir = mkdtempSync(join(tmpdir(), 'palette-interrupt-'));
const f = (name: string): string => join(dir, name);

/** Segments × candidates of the generated list: ~20 MB, a few seconds of scoring on one thread. */
const SEGMENTS = 2000;
const CANDIDATES = 200;

beforeAll(() => {
  if (!existsSync(join(root, 'dist', 'cli', 'output-file.js'))) {
    throw new Error('dist/cli/output-file.js is missing: `npm run build:ts` builds it');
  }
  writeFileSync(f('ref'), Array.from({ length: SEGMENTS }, (_, s) => `w${s} a b c d e f g h`).join('\n') + '\n');
  const fd = openSync(f('list'), 'w');
  for (let id = 0; id < SEGMENTS; id++) {
    let block = '';
    for (let k = 0; k < CANDIDATES; k++) block += `${id} ||| w${k} w${k + 1} a b c x${k % 7} d e ||| f= ${k} 1 ||| -1\n`;
    writeSync(fd, block);
  }
  closeSync(fd);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
}

function exited(child: ChildProcess): Promise<Exit> {
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal, stderr })));
}

/** The exit status a shell reports: the code, or 128 + the number of the signal that ended the process. */
function status(e: Exit): number {
  return e.code ?? 128 + constants.signals[e.signal!];
}

/** The temporary files in `folder` (hidden `.NAME.PID.RAND.tmp`). */
function temporaries(folder: string): string[] {
  return readdirSync(folder).filter((n) => n.endsWith('.tmp'));
}

/** Waits until a temporary file with some output in it is in `folder` (the run is writing), or the child ended. */
async function writing(folder: string, child: ChildProcess, limitMs = 60_000): Promise<void> {
  const until = Date.now() + limitMs;
  while (Date.now() < until && child.exitCode === null && child.signalCode === null) {
    for (const name of temporaries(folder)) {
      try {
        if (statSync(join(folder, name)).size > 0) return;
      } catch {
        // Renamed or removed between the listing and the stat.
      }
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('the run ended (or never wrote) before it could be interrupted: the generated list is too small');
}

describe('palette nbest: SIGINT / SIGTERM while it writes --stats', () => {
  it.each([
    ['SIGINT', '1', 130],
    ['SIGTERM', '1', 143],
    ['SIGINT', '2', 130],
  ] as const)('%s with --workers %s: exit %i, no temporary file, the previous output untouched', async (signal, workers, expected) => {
    const folder = mkdtempSync(join(dir, 'nbest-'));
    const target = join(folder, 'stats');
    writeFileSync(target, 'previous run\n');
    const child = spawn(
      process.execPath,
      [bin, 'nbest', '--nbest', f('list'), '-r', f('ref'), '-m', 'bleu', 'rouge-l', '--stats', target, '-q', '--workers', workers],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    const done = exited(child);
    await writing(folder, child);
    const sent = performance.now();
    child.kill(signal);
    const e = await done;
    const latencyMs = performance.now() - sent;
    expect({ status: status(e), stderr: e.stderr }).toEqual({ status: expected, stderr: '' });
    expect(temporaries(folder)).toEqual([]);
    expect(readdirSync(folder)).toEqual(['stats']);
    expect(readFileSync(target, 'utf8')).toBe('previous run\n');
    // Handled between chunks, not at the end of the list (a whole run takes seconds).
    expect(latencyMs).toBeLessThan(2000);
  });

  it('--prev-stats, interrupted while it writes the merged statistics: exit 130, the previous output untouched', async () => {
    // The merge writes only after the whole list was read, in one stretch that must still let the signal in.
    const prev = f('prev.scores');
    const first = spawnSync(process.execPath, [bin, 'nbest', '--nbest', f('list'), '-r', f('ref'), '-m', 'bleu', '--stats', prev, '-q']);
    expect(first.status, first.stderr?.toString()).toBe(0);
    const folder = mkdtempSync(join(dir, 'nbest-prev-'));
    const target = join(folder, 'stats');
    writeFileSync(target, 'previous run\n');
    const child = spawn(
      process.execPath,
      [bin, 'nbest', '--nbest', f('list'), '-r', f('ref'), '-m', 'bleu', '--prev-stats', prev, '--allow-duplicates', '--stats', target, '-q'],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    const done = exited(child);
    await writing(folder, child);
    child.kill('SIGINT');
    const e = await done;
    expect({ status: status(e), stderr: e.stderr }).toEqual({ status: 130, stderr: '' });
    expect(readdirSync(folder)).toEqual(['stats']);
    expect(readFileSync(target, 'utf8')).toBe('previous run\n');
  });

  it('with no previous output, nothing at all is left', async () => {
    const folder = mkdtempSync(join(dir, 'nbest-new-'));
    const child = spawn(
      process.execPath,
      [bin, 'nbest', '--nbest', f('list'), '-r', f('ref'), '-m', 'bleu', '--stats', join(folder, 'stats'), '-q', '--workers', '1'],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    const done = exited(child);
    await writing(folder, child);
    child.kill('SIGINT');
    expect(status(await done)).toBe(130);
    expect(readdirSync(folder)).toEqual([]);
  });
});

describe('palette report -o: interrupted while it computes', () => {
  it('SIGINT ends it at once: exit 130, no temporary file, the previous report untouched', async () => {
    const folder = mkdtempSync(join(dir, 'report-'));
    const target = join(folder, 'report.html');
    writeFileSync(target, '<p>previous report</p>\n');
    const sample = join(root, 'samples', 'wmt17-en-de');
    const systems = readdirSync(join(sample, 'sys')).map((n) => join(sample, 'sys', n));
    // 200 000 resamples: seconds of synchronous computing (0.6 s with 2 000).
    const child = spawn(
      process.execPath,
      [bin, 'report', join(sample, 'ref.de'), '-i', ...systems, '-m', 'bleu', 'chrf', '--bootstrap', '200000', '-o', target],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    const done = exited(child);
    await new Promise((r) => setTimeout(r, 1500));
    expect(child.exitCode, 'the report finished before it could be interrupted').toBeNull();
    child.kill('SIGINT');
    const e = await done;
    expect(status(e)).toBe(130);
    expect(readdirSync(folder)).toEqual(['report.html']);
    expect(readFileSync(target, 'utf8')).toBe('<p>previous report</p>\n');
  });
});

/**
 * A child that opens `target` with the CLI's output-file helper (dist/), writes part of it, says "ready" and then
 * either waits (`wait`), computes synchronously for a while and commits (`busy`), or waits with a SIGINT listener of
 * its own that tries to commit, prints what happened and exits 7 (`host`).
 */
function helperChild(target: string, mode: 'wait' | 'busy' | 'host'): ChildProcess {
  const helper = join(root, 'dist', 'cli', 'output-file.js');
  const script = `
    import { openOutputFile } from ${JSON.stringify(helper)};
    const mode = ${JSON.stringify(mode)};
    let out;
    if (mode === 'host') {
      process.on('SIGINT', () => {
        let result = 'committed';
        try {
          out.commit();
        } catch (err) {
          result = err.message;
        }
        process.stdout.write('host: ' + result + '\\n');
        process.exit(7);
      });
    }
    out = openOutputFile(${JSON.stringify(target)});
    out.write('half of the new ');
    out.write(new Uint8Array(1 << 16).fill(0x61));
    process.stdout.write('ready\\n');
    if (mode === 'busy') {
      const until = Date.now() + 1500;
      while (Date.now() < until);
      out.write('output\\n');
      out.commit();
    } else {
      setInterval(() => {}, 1000);
    }
  `;
  return spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Resolves when the child said "ready"; what it prints is gathered on `printed`. */
function ready(child: ChildProcess, printed: string[] = []): Promise<void> {
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      printed.push(d.toString());
      if (d.toString().includes('ready')) resolve();
    });
    child.on('exit', () => reject(new Error('the child ended before it was ready')));
  });
}

describe('the output-file helper in a child holding its temporary file', () => {
  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const)('%s: exit %i, the temporary file removed, the previous file untouched', async (signal, expected) => {
    const folder = mkdtempSync(join(dir, 'helper-'));
    const target = join(folder, 'out.html');
    writeFileSync(target, 'previous\n');
    const child = helperChild(target, 'wait');
    const done = exited(child);
    await ready(child);
    expect(temporaries(folder)).toHaveLength(1);
    child.kill(signal);
    const e = await done;
    expect({ status: status(e), stderr: e.stderr }).toEqual({ status: expected, stderr: '' });
    expect(readdirSync(folder)).toEqual(['out.html']);
    expect(readFileSync(target, 'utf8')).toBe('previous\n');
  });

  it('a signal during a synchronous stretch is not lost: the file is committed whole, then the process exits 130', async () => {
    const folder = mkdtempSync(join(dir, 'helper-busy-'));
    const target = join(folder, 'out.html');
    const child = helperChild(target, 'busy');
    const done = exited(child);
    await ready(child);
    child.kill('SIGINT');
    const e = await done;
    expect(status(e)).toBe(130);
    expect(readdirSync(folder)).toEqual(['out.html']);
    expect(readFileSync(target, 'utf8')).toBe(`half of the new ${'a'.repeat(1 << 16)}output\n`);
  });

  it("a host's own SIGINT listener decides how the process ends; the file is removed first and cannot be committed", async () => {
    const folder = mkdtempSync(join(dir, 'helper-host-'));
    const target = join(folder, 'out.html');
    const child = helperChild(target, 'host');
    const done = exited(child);
    const printed: string[] = [];
    await ready(child, printed);
    child.kill('SIGINT');
    expect(status(await done)).toBe(7);
    expect(printed.join('')).toBe(`ready\nhost: ${target}: the output file was removed on an interrupt\n`);
    expect(readdirSync(folder)).toEqual([]);
  });
});
