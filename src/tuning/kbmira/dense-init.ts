/**
 * The start weights of Moses' `kbmira --dense-init FILE` (mert/HopeFearDecoder.cpp `InitialiseWeights`), in either of
 * its two formats: one `name= value` line per dense feature (what Moses' mert-moses.pl writes as `runN.dense`), or,
 * when the first line has no `=`, the deprecated Moses mert `init.opt` format, whose first line holds the weights.
 *
 * Moses reads a `name= value` line's value from two characters after the last `=` (so `name=1.5` would read `.5`);
 * here the value is what follows the last `=`, blanks trimmed, which is the same number for every file mert-moses.pl
 * writes. Every problem — a line without `=`, a value that is not a number, a count that is not the features' — is an
 * `E_BAD_INPUT` naming the file and line.
 */
import { InputError } from '../../errors.js';
import type { MosesStatsFile } from '../pro/moses-files.js';

const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** The weights read by {@link readKbmiraDenseInit}. */
export interface KbmiraDenseInit {
  /** One weight per dense feature, single precision. */
  readonly weights: Float32Array;
  /** The feature names of a `name= value` file (a name given to several features numbered `_1`, `_2`, … as Moses does); empty for the deprecated format. */
  readonly names: readonly string[];
  /** Whether the file is in the deprecated Moses mert format (Moses warns about it). */
  readonly deprecatedFormat: boolean;
}

function bad(file: string, line: number, message: string): InputError {
  return new InputError('E_BAD_INPUT', message, { file, line });
}

function weight(text: string, file: string, line: number): number {
  const v = Math.fround(Number(text));
  if (!NUMBER.test(text) || !Number.isFinite(v)) throw bad(file, line, `weight ${JSON.stringify(text)} is not a number`);
  return v;
}

/**
 * Reads a `--dense-init` file (see the file comment).
 * @param dimensions the number of dense features of the candidates (checked against the file)
 * @throws InputError `E_BAD_INPUT` naming the file and line of a malformed line or a wrong number of weights.
 */
export function readKbmiraDenseInit(file: MosesStatsFile, dimensions: number): KbmiraDenseInit {
  const lines = [...file.lines];
  while (lines.length > 0 && lines[lines.length - 1].trim() === '') lines.pop();
  if (lines.length === 0) throw new InputError('E_BAD_INPUT', `no weights (expected ${dimensions}, one per feature)`, { file: file.name });
  if (!lines[0].includes('=')) {
    const t = lines[0].trim();
    const fields = t.length === 0 ? [] : t.split(/[ \t]+/);
    if (fields.length !== dimensions) throw bad(file.name, 1, `${fields.length} weights, expected ${dimensions} (one per feature of the candidates)`);
    return { weights: Float32Array.from(fields, (f) => weight(f, file.name, 1)), names: [], deprecatedFormat: true };
  }
  const weights: number[] = [];
  const names: string[] = [];
  let last = '';
  let counter = 1;
  lines.forEach((text, i) => {
    const equals = text.lastIndexOf('=');
    if (equals < 0) throw bad(file.name, i + 1, `expected "name= value", got ${JSON.stringify(text)}`);
    const name = text.slice(0, equals);
    weights.push(weight(text.slice(equals + 1).trim(), file.name, i + 1));
    names.push(name);
    // Moses numbers the features of a name given several times: name_1, name_2, …
    if (name !== last) counter = 1;
    last = name;
    if (counter > 1) {
      names[names.length - 1] = `${name}_${counter}`;
      if (counter === 2) names[names.length - 2] = `${name}_1`;
    }
    counter++;
  });
  if (weights.length !== dimensions) {
    throw bad(file.name, lines.length, `${weights.length} weights, expected ${dimensions} (one per feature of the candidates)`);
  }
  return { weights: Float32Array.from(weights), names, deprecatedFormat: false };
}
