/**
 * Noun-phrase chunkers by name (`--chunker`): `compromise` (a part-of-speech tagger from npm with a base-NP grammar)
 * and `bracketed` (pre-chunked `[NP … ]` input, so scores need not depend on a chunker).
 */
import { InputError } from '../../errors.js';
import { BracketedChunker } from './bracketed.js';
import { CompromiseChunker } from './compromise-chunker.js';
import type { NpChunker } from './np-chunker.js';

export { BracketedChunker } from './bracketed.js';
export { CompromiseChunker, npSpans } from './compromise-chunker.js';
export { phraseCount, type ChunkedSentence, type NpChunker } from './np-chunker.js';
export { wordBounds } from './words.js';

const FACTORIES: ReadonlyMap<string, () => NpChunker> = new Map<string, () => NpChunker>([
  ['compromise', () => new CompromiseChunker()],
  ['bracketed', () => new BracketedChunker()],
]);

/** Names {@link createChunker} knows, the default first. */
export const CHUNKER_NAMES: readonly string[] = [...FACTORIES.keys()];

/** The chunker used when none is named. */
export const DEFAULT_CHUNKER = 'compromise';

/**
 * The chunker called `name`, or `chunker` itself when it is one already (a caller's own implementation).
 * @throws InputError `E_BAD_OPTION` for an unknown name.
 */
export function createChunker(name: string | NpChunker): NpChunker {
  if (typeof name !== 'string') return name;
  const factory = FACTORIES.get(name);
  if (factory === undefined) {
    throw new InputError('E_BAD_OPTION', `unknown chunker "${name}" (expected one of: ${CHUNKER_NAMES.join(', ')})`);
  }
  return factory();
}
