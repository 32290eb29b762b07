/**
 * compromise for the NP chunker on Node: `require` gives its CommonJS build synchronously, so the chunker can load
 * it on the first line it chunks instead of every `palette` command paying its load time at start-up.
 */
import { createRequire } from 'node:module';
import type { Compromise } from '../text/chunk/compromise-chunker.js';

/** Loads compromise (the same version its ES module build is). */
export function requireCompromise(): Compromise {
  const loaded = createRequire(import.meta.url)('compromise') as Compromise | { default: Compromise };
  return typeof loaded === 'function' ? loaded : loaded.default;
}
