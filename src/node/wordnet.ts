/**
 * METEOR's WordNet 3.0 table on Node: read from resources/ beside the package on the first METEOR line, so that no
 * other command reads or parses its 3 MB.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PaletteError } from '../errors.js';
import type { WordnetData } from '../metrics/meteor/wordnet.js';

/**
 * Location of the table. Relative to this file, so it resolves from `src/node/` (vitest, tsx), from `dist/node/`
 * (compiled package) and from `dist/bundle/` (the bundled CLI) alike.
 */
export const WORDNET_TABLE_URL = new URL('../../resources/wordnet-3.0-synonyms.json', import.meta.url);

/**
 * Reads the table.
 * @throws PaletteError `E_FILE_UNREADABLE` when the file cannot be read or parsed.
 */
export function readWordnetTable(): WordnetData {
  const path = fileURLToPath(WORDNET_TABLE_URL);
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as WordnetData;
  } catch (cause) {
    throw new PaletteError('E_FILE_UNREADABLE', `cannot read METEOR's WordNet table at ${path}: ${(cause as Error).message}`);
  }
}
