/** ParaEval's settings as the CLI gives them: what ./descriptor.ts reads from the flags and ./factory.ts builds from. */
import type { ParaphraseFormat } from '../../text/paraphrase/table-format.js';
import type { TokenizerName } from '../../text/tokenizers/index.js';
import type { ParaEvalScoreKind } from './score-kind.js';

/** ParaEval settings as the CLI gives them. */
export interface ParaEvalSettings {
  /** `--paraphrase-table`: the table file (required by `-m paraeval`). */
  readonly table?: string;
  /** `--paraphrase-format`. @default 'auto' */
  readonly format?: ParaphraseFormat;
  /** `--paraphrase-min-words`. @default 1 */
  readonly minWords?: number;
  /** `--paraeval-tokenize` (table phrases and text). @default '13a' */
  readonly tokenize?: TokenizerName;
  /** `--paraeval-lowercase` (table phrases and text). @default false */
  readonly lowercase?: boolean;
  /** `--paraeval-score`. @default 'precision' */
  readonly score?: ParaEvalScoreKind;
}
