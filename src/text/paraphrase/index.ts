/**
 * Paraphrase tables: formats, loading (from strings; from files through the installed reader), paraphrase sets over
 * interned phrases.
 */
export { PhraseTrie } from './phrase-trie.js';
export {
  ParaphraseTable,
  ParaphraseTableBuilder,
  resolveTableOptions,
  type ParaphraseTableInfo,
  type ParaphraseTableOptions,
} from './paraphrase-table.js';
export {
  loadParaphraseTable,
  parseParaphraseTable,
  setParaphraseTableFileReader,
  type LoadParaphraseTableOptions,
  type ParaphraseTableFileReader,
} from './load-table.js';
export {
  checkParaphraseFormat,
  detectParaphraseFormat,
  parseTableLine,
  PARAPHRASE_FORMATS,
  type ParaphraseFormat,
  type ResolvedParaphraseFormat,
  type TableLine,
} from './table-format.js';
