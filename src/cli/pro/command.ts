/**
 * `palette pro --scfile SC --ffile FF [-r SEED] [-o FILE] [-b]`: Moses `pro` as a thin front end on the tuning
 * library (src/tuning/pro/): read the files, sample the pairs, write them as MegaM training lines to standard output
 * or `-o FILE`, byte-identical to Moses for the same seed. Standard error says the seed, as Moses does.
 *
 * Bad input (files whose blocks disagree, statistics that are not BLEU's, a non-number) ends the run with
 * `palette pro: error: FILE:LINE: message` and exit status 2 before anything is written (Moses exits 1); `-o` is
 * written to a temporary file and renamed (../output-file.ts), so it is never left half-written.
 */
import { InputError, locate } from '../../errors.js';
import { readLines } from '../../node/read-lines.js';
import { readMosesTuningFiles } from '../../tuning/pro/moses-files.js';
import { proMegamText, proSample } from '../../tuning/pro/sampler.js';
import { EXIT_INPUT, EXIT_OK, type CliIo } from '../io.js';
import { checkOutputFile, openOutputFile } from '../output-file.js';
import { parseProArgs, proHelp } from './options.js';

const file = (name: string) => ({ name, lines: readLines(name) });

/** Runs `palette pro`; bad input is reported as `palette pro: error: FILE:LINE: message`, exit status 2. */
export async function runProCommand(argv: readonly string[], io: CliIo): Promise<number> {
  try {
    return pro(argv, io);
  } catch (err) {
    if (!(err instanceof InputError)) throw err;
    io.stderr.write(`palette pro: error: ${locate(err.message, err.file, err.line)}\n`);
    return EXIT_INPUT;
  }
}

function pro(argv: readonly string[], io: CliIo): number {
  const parsed = parseProArgs(argv);
  if (parsed.kind === 'help') {
    io.stdout.write(proHelp());
    return EXIT_OK;
  }
  const options = parsed.options;
  if (options.outputFile !== undefined) checkOutputFile(options.outputFile);
  const data = readMosesTuningFiles(options.featureFiles.map((f, i) => ({ features: file(f), scores: file(options.scoreFiles[i]) })));
  const seed = options.seed ?? Math.floor(Date.now() / 1000);
  io.stderr.write(options.seed === undefined ? 'Initialising random seed from system clock\n' : `Initialising random seed to ${seed}\n`);
  const samples = proSample(data, { seed, smoothBrevityPenalty: options.smoothBrevityPenalty });
  const text = proMegamText(samples, data.features, data.dimensions);
  if (options.outputFile === undefined) {
    io.stdout.write(text);
    return EXIT_OK;
  }
  const out = openOutputFile(options.outputFile);
  try {
    out.write(text);
    out.commit();
  } catch (err) {
    out.abort();
    throw err;
  }
  return EXIT_OK;
}
