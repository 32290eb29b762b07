/**
 * Installs the Node adapter into the portable core when imported: the WebAssembly kernels read from `build/` on
 * first use (./wasm.ts), paraphrase tables read from files (./paraphrase-table.ts), compromise `require`d when the
 * NP chunker first needs it (./compromise.ts), METEOR's WordNet table read when METEOR first needs it
 * (./wordnet.ts), and lines handed to the 13a kernel as UTF-16 code units (./utf16.ts). Every Node entry point
 * imports it (the package main, the CLI, the worker scripts), so they behave as before the core became portable;
 * nothing is read or compiled at import.
 */
import { setWordnetLoader } from '../metrics/meteor/wordnet.js';
import { setCompromiseLoader } from '../text/chunk/compromise-chunker.js';
import { setParaphraseTableFileReader } from '../text/paraphrase/load-table.js';
import { setWasmProvider } from '../wasm/load.js';
import { setUtf16Writer } from '../wasm/wtf8.js';
import { requireCompromise } from './compromise.js';
import { readParaphraseTableFile } from './paraphrase-table.js';
import { writeUtf16 } from './utf16.js';
import { nodeWasmProvider } from './wasm.js';
import { readWordnetTable } from './wordnet.js';

setWasmProvider(nodeWasmProvider);
setParaphraseTableFileReader(readParaphraseTableFile);
setCompromiseLoader(requireCompromise);
setWordnetLoader(readWordnetTable);
setUtf16Writer(writeUtf16);
