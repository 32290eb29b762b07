/** What the word-level edit metrics (WER, PER, GTM) share on the command line: a word split and case. */
import type { FlagValues } from '../descriptor.js';
import { EDIT_TOKENIZERS, type EditTokenizer } from './words.js';

/** Word split and case of an edit metric (WER, PER, GTM) as the CLI gives them. */
export interface EditSettings {
  /** `--wer-tokenize` / `--per-tokenize` / `--gtm-tokenize`. @default 'jiwer' (WER), 'none' (PER, GTM) */
  readonly tokenize?: EditTokenizer;
  /** `--wer-lowercase` / `--per-lowercase` / `--gtm-lowercase`. @default false */
  readonly lowercase?: boolean;
}

/** Help section of the edit metrics' flags. */
export const EDIT_GROUP = 'WER, PER, GTM (Palette)';

/** `--ID-tokenize` and `--ID-lowercase` of edit metric `id` (`wer`, `per`, `gtm`). */
export function readEditSettings(f: FlagValues, id: string): EditSettings {
  return { tokenize: f.choice(`${id}Tokenize`, `--${id}-tokenize`, EDIT_TOKENIZERS), lowercase: f.flag(`${id}Lowercase`) };
}
