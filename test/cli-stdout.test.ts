/**
 * bin/palette's standard output (src/cli/io.ts processStdout, written without Node's stdout stream): everything
 * written reaches a pipe whole and in order, a reader that goes away ends the run quietly with status 0, and a pipe
 * is not a terminal.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers/static-imports.js';

const IO = join(ROOT, 'dist', 'cli', 'io.js');

describe('palette standard output', () => {
  it('writes large and many writes to a pipe whole and in order, and says a pipe is no terminal', () => {
    if (!existsSync(IO)) throw new Error('dist/ is missing: `npm run build:ts` builds it');
    const script = `import { processStdout } from ${JSON.stringify(IO)};
const out = processStdout();
for (let i = 0; i < 2000; i++) out.write('line ' + i + ' ' + 'é'.repeat(i % 700) + '\\n');
process.stderr.write('tty=' + out.isTTY + '\\n');`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', maxBuffer: 64 << 20 });
    expect(r.status, r.stderr).toBe(0);
    const expected = Array.from({ length: 2000 }, (_, i) => `line ${i} ${'é'.repeat(i % 700)}\n`).join('');
    expect(r.stdout === expected).toBe(true);
    expect(r.stderr).toBe('tty=false\n');
  });

  it('ends quietly, status 0, when the reader goes away', async () => {
    if (!existsSync(IO)) throw new Error('dist/ is missing: `npm run build:ts` builds it');
    const script = `import { processStdout } from ${JSON.stringify(IO)};
const out = processStdout();
for (let i = 0; i < 100000; i++) out.write('x'.repeat(1000) + '\\n');
process.stderr.write('not reached\\n');
process.exitCode = 3;`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    child.stdout.destroy();
    const status = await new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    expect(err).toBe('');
    expect(status).toBe(0);
  });
});
