/**
 * The real `palette` executable as a child process, for the suites that need separate processes (queue workers and
 * submitters, signals): bin/palette runs dist/, so these suites see the code of the last `npm run build:ts`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** bin/palette of this checkout. */
export const PALETTE_BIN = join(fileURLToPath(new URL('../..', import.meta.url)), 'bin/palette');

/** How a spawned palette process ended, and everything it wrote. */
export interface PaletteExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly out: string;
  readonly err: string;
}

/** A spawned palette process: the child (to signal it), its end, and what it has written to stderr so far. */
export interface PaletteProcess {
  readonly child: ChildProcess;
  readonly done: Promise<PaletteExit>;
  err(): string;
}

/** Starts `palette ARGS` in `cwd` with stdin closed and stdout/stderr collected. */
export function spawnPalette(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv = process.env): PaletteProcess {
  const child = spawn(process.execPath, [PALETTE_BIN, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (err += d));
  const done = new Promise<PaletteExit>((resolve) => child.on('close', (code, signal) => resolve({ code, signal, out, err })));
  return { child, done, err: () => err };
}

/**
 * Empties `procs` and kills (SIGKILL) those still running, waiting for each to end: a test's teardown, so that no
 * worker of one test takes the next test's jobs.
 */
export async function killAll(procs: PaletteProcess[]): Promise<void> {
  for (const p of procs.splice(0)) {
    if (p.child.exitCode === null && p.child.signalCode === null) {
      p.child.kill('SIGKILL');
      await p.done;
    }
  }
}
