/** How ParaEval's settings become an instance: the code ./descriptor.ts imports only when a run names ParaEval. */
import { InputError } from '../../errors.js';
import { loadParaphraseTable } from '../../text/paraphrase/index.js';
import { cliMetric, type CliMetric, type MetricFactory } from '../descriptor.js';
import type { ParaEvalSettings } from './settings.js';
import { ParaEval } from './paraeval.js';

/** ParaEval over the table `--paraphrase-table` names, loaded (streamed) once here. */
function createParaEval(s: ParaEvalSettings): CliMetric {
  if (s.table === undefined) {
    throw new InputError(
      'E_BAD_OPTION',
      '-m paraeval needs --paraphrase-table FILE (Moses phrase table, PPDB, or tab-separated phrase pairs)',
    );
  }
  const table = loadParaphraseTable(s.table, {
    format: s.format,
    minWords: s.minWords,
    tokenize: s.tokenize,
    lowercase: s.lowercase,
  });
  return cliMetric(new ParaEval({ table, score: s.score }));
}

/** ParaEval with its settings. */
export const createParaEvalMetric: MetricFactory<ParaEvalSettings> = (_id, settings) => createParaEval(settings);
