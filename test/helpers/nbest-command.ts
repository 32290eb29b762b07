/**
 * `palette nbest` run in-process for the pool tests: its exit code, what it wrote to stderr, and the run's info
 * (workers, tasks, which thread ran them) reported through the command's `onRun` hook.
 */
import { runNbestCommand, type NbestHooks, type NbestRunInfo } from '../../src/cli/nbest/command.js';

export async function nbest(argv: string[], hooks: NbestHooks = {}): Promise<{ code: number; err: string; info?: NbestRunInfo }> {
  let err = '';
  let info: NbestRunInfo | undefined;
  const code = await runNbestCommand(
    argv,
    { stdout: { write: () => true }, stderr: { write: (t: string) => (err += t) } },
    { ...hooks, onRun: (i) => (info = i) },
  );
  return { code, err, info };
}
