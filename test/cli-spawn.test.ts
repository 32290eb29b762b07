import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { run, type CliIo } from '../src/cli/main.js';

// The real executable: `node bin/palette` runs the compiled CLI in dist/ (built by `npm install` through the
// `prepare` script, or by `npm run build`), with real process streams and exit statuses. dist/ and build/ are build
// outputs: after changing src/ or assembly/, rebuild (`npm run build`) or these comparisons with src/ fail.

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = `${root}bin/palette`;
const REF = 'samples/wmt17-en-de/ref.de';
const SYS = 'samples/wmt17-en-de/sys/uedin-nmt.4722.de';

function palette(args: string[], input?: string): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [bin, ...args], { cwd: root, encoding: 'utf8', input, timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

async function inProcess(args: string[]): Promise<string> {
  let out = '';
  const io: CliIo = { stdout: { write: (s: string) => (out += s) }, stderr: { write: () => true }, env: {} };
  await run(args, io);
  return out;
}

beforeAll(() => {
  if (!existsSync(`${root}dist/cli/main.js`)) {
    throw new Error('dist/cli/main.js is missing: `npm install` (or `npm run build:ts`) builds it');
  }
});

describe('bin/palette', () => {
  it('is an executable node script', () => {
    expect(statSync(bin).mode & 0o111).not.toBe(0);
    expect(palette(['--version'])).toEqual({ status: 0, stdout: 'palette 0.1.0\n', stderr: '' });
  });

  it('scores the sample exactly as the in-process CLI does (text and JSON)', async () => {
    for (const extra of [['-f', 'text'], ['-w', '3']]) {
      const args = ['score', REF, '-i', SYS, '-m', 'bleu', 'chrf', 'nist', ...extra];
      const r = palette(args);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout, 'dist/ differs from src/: run npm run build').toBe(await inProcess(args));
    }
  });

  it('reads the hypothesis from standard input with -i -', async () => {
    const r = palette(['score', REF, '-i', '-', '-b'], readFileSync(`${root}${SYS}`, 'utf8'));
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout, 'dist/ differs from src/: run npm run build').toBe(await inProcess(['score', REF, '-i', SYS, '-b']));
  });

  it('exits 2 with one message and an empty stdout on bad input', () => {
    const r = palette(['score', REF, '-i', 'samples/no-such-file.de']);
    expect(r).toEqual({
      status: 2,
      stdout: '',
      stderr: 'palette: error: samples/no-such-file.de: no such file\n',
    });
  });
});
