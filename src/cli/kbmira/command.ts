/**
 * `palette kbmira --scfile SC --ffile FF [--dense-init FILE] [-r SEED] [-o FILE] …`: Moses `kbmira` as a thin front end
 * on the tuning library (src/tuning/kbmira/): read the files and the start weights, train, and write the best
 * epoch's averaged weights as `F<i> <weight>` lines (C++ stream formatting: `%g`, six significant digits), with
 * Moses' progress lines on standard error (`Initial BLEU = …`, `U/N updates, avg loss = …, BLEU = …`,
 * `Best BLEU = …`, which mert-moses.pl reads).
 *
 * Moses rewrites its output each time an epoch beats the best so far; on standard output the weights are written at
 * each such epoch as Moses does, and `-o FILE` receives the last of them, written to a temporary file and renamed
 * when the run ends (../output-file.ts). Bad input ends the run with `palette kbmira: error: FILE:LINE: message` and
 * exit status 2 before anything is printed or written.
 */
import { InputError, locate } from '../../errors.js';
import { readLines } from '../../node/read-lines.js';
import { cFormatG } from '../../util/c-format.js';
import { readKbmiraDenseInit } from '../../tuning/kbmira/dense-init.js';
import { kbmiraOptimize, type KbmiraUpdate } from '../../tuning/kbmira/optimizer.js';
import { readMosesTuningFiles } from '../../tuning/pro/moses-files.js';
import { EXIT_INPUT, EXIT_OK, type CliIo } from '../io.js';
import { checkOutputFile, openOutputFile } from '../output-file.js';
import { kbmiraHelp, parseKbmiraArgs } from './options.js';

const file = (name: string) => ({ name, lines: readLines(name) });

/** Weights as Moses' `operator<<(ostream, MiraWeightVector)`: `i:w` for each weight above 1e-8 in magnitude, a space before every index but 0. */
function weightVectorText(w: Float32Array): string {
  let text = '';
  for (let i = 0; i < w.length; i++) {
    if (Math.abs(w[i]) > 1e-8) text += `${i > 0 ? ' ' : ''}${i}:${cFormatG(w[i])}`;
  }
  return text;
}

/** A feature vector as Moses' `operator<<(ostream, MiraFeatureVector)`: `i:v` for every feature. */
function featureVectorText(f: ArrayLike<number>, offset: number, n: number): string {
  const parts: string[] = [];
  for (let i = 0; i < n; i++) parts.push(`${i}:${cFormatG(Math.fround(f[offset + i]))}`);
  return parts.join(' ');
}

/** Moses' `--verbose` block for one update. */
function verboseText(u: KbmiraUpdate, features: Float32Array, D: number): string {
  return (
    `Updating sent ${u.position}\n` +
    `Wght: ${weightVectorText(u.weights)}\n` +
    `Hope: ${featureVectorText(features, u.hope * D, D)} BLEU:${cFormatG(u.hopeBleu)} Score:${cFormatG(u.hopeScore)}\n` +
    `Fear: ${featureVectorText(features, u.fear * D, D)} BLEU:${cFormatG(u.fearBleu)} Score:${cFormatG(u.fearScore)}\n` +
    `Diff: ${featureVectorText(u.diff, 0, D)} BLEU:${cFormatG(u.delta)} Score:${cFormatG(u.diffScore)}\n` +
    `Loss: ${cFormatG(u.loss)} Scale: 1\n\n`
  );
}

/** The output lines of a weight vector: `F<i> <weight>`. */
function weightsText(w: Float32Array): string {
  let text = '';
  for (let i = 0; i < w.length; i++) text += `F${i} ${cFormatG(w[i])}\n`;
  return text;
}

/** Runs `palette kbmira`; bad input is reported as `palette kbmira: error: FILE:LINE: message`, exit status 2. */
export async function runKbmiraCommand(argv: readonly string[], io: CliIo): Promise<number> {
  try {
    return kbmira(argv, io);
  } catch (err) {
    if (!(err instanceof InputError)) throw err;
    io.stderr.write(`palette kbmira: error: ${locate(err.message, err.file, err.line)}\n`);
    return EXIT_INPUT;
  }
}

function kbmira(argv: readonly string[], io: CliIo): number {
  const parsed = parseKbmiraArgs(argv);
  if (parsed.kind === 'help') {
    io.stdout.write(kbmiraHelp());
    return EXIT_OK;
  }
  const options = parsed.options;
  if (options.outputFile !== undefined) checkOutputFile(options.outputFile);
  const data = readMosesTuningFiles(options.featureFiles.map((f, i) => ({ features: file(f), scores: file(options.scoreFiles[i]) })));
  const D = data.dimensions;
  const init = options.denseInit === undefined ? undefined : readKbmiraDenseInit(file(options.denseInit), D);

  const err = io.stderr;
  err.write(`kbmira with c=${cFormatG(options.c)} decay=${cFormatG(options.decay)} no_shuffle=${options.noShuffle ? 1 : 0}\n`);
  const seed = options.seed ?? Math.floor(Date.now() / 1000);
  err.write(options.seed === undefined ? 'Initialising random seed from system clock\n' : `Initialising random seed to ${seed}\n`);
  if (init !== undefined) {
    if (options.verbose) err.write('Reading dense features:\n');
    if (init.deprecatedFormat) err.write("WARN: dense features in deprecated Moses mert format. Prefer 'name= value' format.\n");
    if (options.verbose) init.weights.forEach((w, i) => err.write(init.deprecatedFormat ? `${cFormatG(w)}\n` : `${init.names[i]} ${cFormatG(w)}\n`));
  }
  // Moses' enumerator prints a dot every 100 sentences of a pass over the files: once, as it loads them, or at every
  // pass with --streaming (in the middle of the epoch's line, as Moses prints it).
  const sentences = data.candidateOffsets.length - 1;
  if (!options.streaming) err.write('.'.repeat(Math.floor(sentences / 100)));
  const toStdout = options.outputFile === undefined;
  // Moses writes "Initial BLEU = " before it evaluates (with --streaming, the evaluation's dots follow it); the
  // initial evaluation is the optimiser's first step.
  if (!options.streamingOut) err.write('Initial BLEU = ');
  const result = kbmiraOptimize(data, {
    start: init?.weights,
    c: options.c,
    decay: options.decay,
    iterations: options.iterations,
    shuffle: !options.noShuffle && !options.streaming,
    modelBackground: options.modelBackground,
    safeHope: options.safeHope,
    seed,
    onUpdate: options.verbose ? (u) => err.write(verboseText(u, data.features, D)) : undefined,
    onSentence: options.streamingOut ? (w) => io.stdout.write(`${weightVectorText(w)}\n`) : undefined,
    onVisit: options.streaming ? (_, position) => ((position + 1) % 100 === 0 ? err.write('.') : undefined) : undefined,
    // Moses prints an epoch's line in two halves, around the evaluation (whose dots, with --streaming, come between).
    onEpochTrained: (updates, examples, averageLoss) => err.write(`${updates}/${examples} updates, avg loss = ${cFormatG(averageLoss)}`),
    onEpoch: (e) => {
      err.write(`, BLEU = ${cFormatG(e.bleu)}\n`);
      if (e.improved && toStdout) io.stdout.write(weightsText(e.weights));
    },
    initialEvaluation: !options.streamingOut,
    onStart: (bleu) => err.write(`${cFormatG(bleu)}\n`),
  });
  if (result.weights !== undefined && options.outputFile !== undefined) {
    const out = openOutputFile(options.outputFile);
    try {
      out.write(weightsText(result.weights));
      out.commit();
    } catch (e) {
      out.abort();
      throw e;
    }
  }
  err.write(`Best BLEU = ${cFormatG(result.bestBleu)}\n`);
  return EXIT_OK;
}
