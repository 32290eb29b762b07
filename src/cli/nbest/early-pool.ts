/**
 * The worker pool of `palette nbest -j N`, started at the command's entry: its workers load their code (piscina,
 * the worker bundle, the n-best kind, the metric registry) while this thread loads the command's code, reads the
 * references and loads the run's metrics, on a core that start-up leaves idle; the run then gives them their setup
 * (src/pool/nbest-pool.ts, {@link EarlyNbestPool}).
 *
 * The arguments are only looked at here, not parsed (the command's parser loads with the command): a pool is
 * started for a run that names `-j/--workers N` (N ≥ 2) and an n-best file large enough to be scored on a pool, and
 * is neither a merge nor a queue run. Whatever this guess gets wrong costs a pool started for nothing, never a
 * different output: the run adopts the pool only when it asks for a pool of the same size.
 */
import { statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { DEFAULT_TASK_SIZE } from '../../engine/nbest/task-size.js';
import { selectedWasmBuild, wasmUrl } from '../../node/wasm.js';
import { EarlyNbestPool } from '../../pool/nbest-pool.js';
import { MAX_WORKERS } from '../shared-options.js';

/** Options whose presence means no pool (help, a merge, a queue run). */
const NO_POOL = new Set(['-h', '--help', '--prev-stats', '--queue']);

/** The value `argv` gives any of `names` last (`--name value` or `--name=value`), as the parser takes it. */
function valueOf(argv: readonly string[], names: readonly string[]): string | undefined {
  let value: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i];
    if (token === '--') break;
    for (const name of names) {
      if (token === name) value = argv[i + 1];
      else if (token.startsWith(`${name}=`)) value = token.slice(name.length + 1);
    }
  }
  return value;
}

/** Starts the pool of `palette nbest` when `argv` (after `nbest`) looks like a pooled run; see the file comment. */
export function startEarlyNbestPool(argv: readonly string[]): EarlyNbestPool | undefined {
  if (argv.some((token) => NO_POOL.has(token.split('=', 1)[0]))) return undefined;
  const workers = Number(valueOf(argv, ['--workers', '-j']));
  if (!Number.isInteger(workers) || workers < 2 || workers > MAX_WORKERS) return undefined;
  const nbest = valueOf(argv, ['--nbest', '-n']);
  const taskSize = Number(valueOf(argv, ['--task-size']) ?? DEFAULT_TASK_SIZE);
  if (nbest === undefined || !(taskSize > 0)) return undefined;
  let size: number;
  try {
    size = statSync(nbest).size;
  } catch {
    return undefined; // the run reports it
  }
  // The run's own rule for a list too small for a pool (src/engine/nbest/run.ts).
  if (size < 2 * taskSize) return undefined;
  let build;
  try {
    build = selectedWasmBuild(process.env);
  } catch {
    return new EarlyNbestPool(workers - 1); // the run reports it
  }
  // The Node adapter's kernels, which the run will use: the workers compile them from the file while they wait.
  return new EarlyNbestPool(workers - 1, { build, path: fileURLToPath(wasmUrl(build)) });
}
