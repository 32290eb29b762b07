/** ROUGE's settings as the CLI gives them: what ./descriptor.ts reads from the flags and ./factory.ts builds from. */
import type { Rouge155Limit } from '../../text/rouge/index.js';
import type { RougeTokenizerName } from '../../text/rouge/tokenizer-names.js';
import type { TokenizerName } from '../../text/tokenizers/index.js';
import type { RougeAverage, RougeFlavor, RougeMultiReference } from './options.js';

/** ROUGE settings as the CLI gives them (`undefined` = the flavor's default, see ./options.ts). */
export interface RougeSettings {
  /**
   * `--rouge-flavor`. @default 'rouge-score' for rouge-1 … rouge-9, rouge-l and rouge-lsum; 'rouge155' for the
   * types rouge-score does not have ({@link defaultRougeFlavor})
   */
  readonly flavor?: RougeFlavor;
  /** `--rouge-w-weight`: ROUGE-W's exponent for `rouge-w` (an id like `rouge-w-1.5` gives its own). @default 1.2 */
  readonly wWeight?: number;
  /** `--rouge-tokenizer`. @default the flavor's tokenizer */
  readonly tokenizer?: RougeTokenizerName | TokenizerName;
  /** `--stem`. @default false */
  readonly stem?: boolean;
  /** `--stopwords`: remove the SMART stopwords (ROUGE-1.5.5 `-s`). @default false */
  readonly removeStopwords?: boolean;
  /** `--rouge-alpha` (ROUGE-1.5.5 `-p`). @default 0.5 (rouge155) */
  readonly alpha?: number;
  /** `--rouge-beta`. @default 1 (paper) */
  readonly beta?: number;
  /** `--rouge-multi-ref`. @default 'best-f' (rouge-score), 'pool' (rouge155), 'max' (paper) */
  readonly multiReference?: RougeMultiReference;
  /** `--split-sentences`: a rule name (`none`, `newline`, `punct`, `t-tags`, `marker:STR`). @default the flavor's */
  readonly split?: string;
  /** `--rouge-limit` (ROUGE-1.5.5 `-l`/`-b`, rouge155 flavor). @default no limit */
  readonly limit?: Rouge155Limit;
  /** `--rouge-average`. @default 'segment' */
  readonly average?: RougeAverage;
  /** `--rouge-jackknife`. @default false */
  readonly jackknife?: boolean;
}
