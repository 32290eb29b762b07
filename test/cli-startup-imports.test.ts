/**
 * Start-up is most of a short `palette` run, so the CLI's entry loads almost nothing: importing src/cli/main.ts
 * (what bin/palette does before `--version` or `--help` print) reaches no metric, tokenizer, kernel, Node adapter or
 * command module; each command imports its own code when it runs.
 */
import { describe, expect, it } from 'vitest';
import { reach, src } from './helpers/static-imports.js';
import { run } from '../src/cli/main.js';
import { VERSION } from '../src/version.js';

function capture(): { text: () => string; write: (s: string) => boolean } {
  let out = '';
  return { text: () => out, write: (s: string) => ((out += s), true) };
}

describe('palette start-up', () => {
  it('the CLI entry statically imports only the error types, the version and the exit statuses', () => {
    expect([...reach(src('cli/main.ts'))].sort()).toEqual(['cli/io.ts', 'cli/main.ts', 'errors.ts', 'version.ts']);
  });

  it('--version and --help print without a registry, and a command still gets the default one', async () => {
    const stdout = capture();
    const stderr = capture();
    const io = { stdout, stderr, env: {} } as unknown as Parameters<typeof run>[1];
    expect(await run(['--version'], io)).toBe(0);
    expect(stdout.text()).toBe(`palette ${VERSION}\n`);
    expect(await run(['score', '--help'], io)).toBe(0);
    expect(stdout.text()).toMatch(/chrf/);
    expect(stderr.text()).toBe('');
  });
});
