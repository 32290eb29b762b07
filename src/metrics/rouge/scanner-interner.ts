/**
 * ROUGE over sacrebleu's tokenizers (`13a`, `intl`, `zh`, `char`, `none`): the paper's "Case" set keeps case,
 * which no ROUGE tokenizer does (they all lowercase). Tokens are the tokenizer's, optionally lowercased first
 * (Python `str.lower()`), then filtered by the SMART stopword list and stemmed like `rouge-unicode` does it: NLTK's
 * Porter on tokens of more than 3 characters made only of [a-z0-9] (capitalised or non-Latin tokens stay whole).
 */
import type { CsrBuilder } from '../../text/csr.js';
import { tokenHash, Vocabulary } from '../../text/intern.js';
import { pyLower } from '../../text/pystr.js';
import { isSmartStopword, nltkPorterStem } from '../../text/rouge/index.js';
import { getTokenScanner, TokenBounds, type TokenizerName, type TokenScanner } from '../../text/tokenizers/index.js';

/** Options of a {@link ScannerInterner}. */
export interface ScannerInternerOptions {
  /** Lowercase the text first (Python `str.lower()`). */
  readonly lowercase: boolean;
  /** Stem [a-z0-9] tokens longer than 3 characters with NLTK's Porter. */
  readonly stem: boolean;
  /** Drop SMART stopwords. */
  readonly removeStopwords: boolean;
}

/** Whether `s` is made only of [a-z0-9]. */
function isAsciiWord(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (!((c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39))) return false;
  }
  return true;
}

/** Appends vocabulary ids of a sacrebleu tokenizer's tokens to CSR rows; each spelling is resolved once. */
export class ScannerInterner {
  private readonly scanner: TokenScanner;
  private readonly bounds = new TokenBounds();
  private readonly spellings = new Vocabulary();
  private resolved = new Int32Array(256);

  constructor(
    tokenizer: TokenizerName,
    private readonly options: ScannerInternerOptions,
    readonly vocabulary: Vocabulary,
  ) {
    this.scanner = getTokenScanner(tokenizer);
  }

  /** Appends the ids of the tokens of `text` to the open row of `out`; returns how many. */
  appendIds(text: string, out: CsrBuilder): number {
    const { bounds } = this;
    bounds.clear();
    const source = this.scanner(this.options.lowercase ? pyLower(text) : text, bounds);
    let pushed = 0;
    for (let k = 0; k < bounds.count; k++) {
      const start = bounds.start(k);
      const end = bounds.end(k);
      const hash = tokenHash(source, start, end);
      const raw = this.spellings.findRange(source, start, end, hash);
      const id = raw >= 0 ? this.resolved[raw] : this.learn(source, start, end, hash);
      if (id >= 0) {
        out.push(id);
        pushed++;
      }
    }
    return pushed;
  }

  /** Resolves a new spelling: stopword test, stemming, interning; -1 = dropped. */
  private learn(source: string, start: number, end: number, hash: number): number {
    const raw = this.spellings.idOfRange(source, start, end, hash);
    if (raw >= this.resolved.length) {
      const grown = new Int32Array(this.resolved.length * 2);
      grown.set(this.resolved);
      this.resolved = grown;
    }
    let token = source.slice(start, end);
    let id = -1;
    if (!(this.options.removeStopwords && isSmartStopword(token))) {
      if (this.options.stem && token.length > 3 && isAsciiWord(token)) token = nltkPorterStem(token);
      id = this.vocabulary.id(token);
    }
    this.resolved[raw] = id;
    return id;
  }
}
