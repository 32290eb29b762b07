/**
 * ROUGE-1.5.5's `-z FORMAT` configuration: a plain file list, one evaluation unit per line,
 * `peer model1 model2 … modelN` separated by whitespace. As its `readFileList`: lines starting with `#` and blank
 * lines are skipped; units are numbered 1, 2, … in order; the models get the ids `M.1` … `M.N`; every unit has the
 * one peer `systemId` (ROUGE's second argument, `X` by default); paths are used as written, relative to the working
 * directory; the format applies to every file.
 */
import { InputError } from '../../errors.js';
import type { Rouge155Config, Rouge155Eval } from './eval-config.js';

/** Perl's `\s` on the bytes ROUGE reads the list as. */
const SPACE = /[ \t\n\v\f\r]+/;
const BLANK = /^[ \t\n\v\f\r]*$/;
const EDGE_SPACE = /^[ \t\n\v\f\r]+|[ \t\n\v\f\r]+$/g;

/**
 * The units of a `-z` file list.
 * @param lines the list's lines, without terminators
 * @param format the `-z` value, given to every unit as its input format (ROUGE checks it only when reading)
 * @param systemId the peer id of every unit
 * @param file the list's name, for error messages
 * @throws InputError `E_BAD_INPUT` for a line with fewer than two file names (ROUGE stops there too)
 */
export function readFileList(lines: readonly string[], format: string, systemId: string, file: string): Rouge155Config {
  const evals: Rouge155Eval[] = [];
  lines.forEach((line, index) => {
    if (line.startsWith('#') || BLANK.test(line)) return;
    const files = line.replace(EDGE_SPACE, '').split(SPACE);
    if (files.length < 2) {
      throw new InputError(
        'E_BAD_INPUT',
        'a file list line needs at least 2 file names (peer model1 model2 ... modelN)',
        { file, line: index + 1 },
      );
    }
    const modelIds = files.slice(1).map((_, k) => `M.${k + 1}`);
    evals.push({
      id: String(evals.length + 1),
      peerRoot: undefined,
      modelRoot: undefined,
      format,
      peerFiles: new Map([[systemId, files[0]]]),
      modelIds,
      modelFiles: new Map(modelIds.map((id, k) => [id, files[k + 1]])),
    });
  });
  return { evals, peerIds: [systemId], wholePaths: true };
}
