/** NIST's settings as the CLI gives them: what ./descriptor.ts reads from the flags and ./factory.ts builds from. */
import type { TokenizerName } from '../../text/tokenizers/index.js';
import type { NistFlavor } from './flavor.js';

/** NIST settings as the CLI gives them (`undefined` = the metric's default). */
export interface NistSettings {
  /** `--nist-flavor`. @default 'mteval' */
  readonly flavor?: NistFlavor;
  /** `--nist-max-ngram-order`. @default 5 */
  readonly maxOrder?: number;
  /** `--nist-tokenize`. @default '13a' */
  readonly tokenize?: TokenizerName;
  /** `--nist-lowercase` (mteval-v13a without `-c`). @default false */
  readonly lowercase?: boolean;
}
