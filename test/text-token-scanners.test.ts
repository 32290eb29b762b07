/**
 * Tokenizers in scanner form (token bounds, no joined string) against their string form and sacreBLEU: on the
 * 3000 golden/edge lines (BLEU's path, cased and lowercased) the scanned tokens must be the `split()` of
 * sacreBLEU's `bleu`/`bleu_lc` strings; on random strings they must equal `pySplit` of the string tokenizer.
 * Interning from bounds must give the ids that interning the joined string gives.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CsrBuilder, csrRow } from '../src/text/csr.js';
import { internLine, internTokens, lookupLine, lookupTokens, Vocabulary } from '../src/text/intern.js';
import { pySplit } from '../src/text/pystr.js';
import {
  bleuScan,
  bleuTokenize,
  getTokenizer,
  getTokenScanner,
  TokenBounds,
  TOKENIZER_NAMES,
} from '../src/text/tokenizers/index.js';

const FIXTURES = new URL('./fixtures/edge-tok/', import.meta.url);

function readJsonl(name: string): Record<string, unknown>[] {
  return gunzipSync(readFileSync(new URL(`${name}.gz`, FIXTURES)))
    .toString('utf8')
    .split('\n')
    .filter((l) => l.length > 0)
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((r) => !('_header' in r));
}

function scanned(source: string, tokens: TokenBounds): string[] {
  return Array.from({ length: tokens.count }, (_, k) => source.slice(tokens.start(k), tokens.end(k)));
}

const inputs = new Map<number, string>();
for (const r of readJsonl('inputs.jsonl')) inputs.set(r.id as number, r.text as string);

describe.each(['13a', 'intl', 'zh', 'char', 'none'])('scanner %s vs sacreBLEU 2.6.0 (golden/edge)', (name) => {
  const records = readJsonl(`sacrebleu_tok_${name}.jsonl`);
  const scanner = getTokenScanner(name);
  it.each([false, true])('BLEU tokens, lowercase %s', (lowercase) => {
    const tokens = new TokenBounds();
    const mismatches: number[] = [];
    for (const r of records) {
      const want = lowercase ? (r.bleu_lc ?? r.tok_lc) : (r.bleu ?? r.tok);
      const source = bleuScan(inputs.get(r.id as number)!, scanner, lowercase, tokens);
      if (JSON.stringify(scanned(source, tokens)) !== JSON.stringify(pySplit(want as string))) mismatches.push(r.id as number);
    }
    expect(mismatches).toEqual([]);
  });
});

const PIECES = [
  ...'0123456789', ...'..,,--\'', ...'!"#$%&()*+/:;<=>?@[]^_`{|}~', ...'aZé',
  ' ', '  ', '\t', '\n', '\u00a0', '\u3000', '\u200b', '\ufeff', '<skipped>', '&amp;', '&lt;', '-\n',
  '中', '。', '\u2014', '\u201c', '😀', '\u{20000}', '\u0663', '\u00bd', 'İ', 'Σ',
];
const line = fc.array(fc.constantFrom(...PIECES), { maxLength: 30 }).map((a) => a.join(''));

describe('scanner form equals pySplit of the string form', () => {
  it.each([...TOKENIZER_NAMES])('%s on random strings', (name) => {
    const scanner = getTokenScanner(name);
    const tokenizer = getTokenizer(name);
    const tokens = new TokenBounds();
    fc.assert(
      fc.property(line, fc.boolean(), (s, lowercase) => {
        const source = bleuScan(s, scanner, lowercase, tokens);
        expect(scanned(source, tokens)).toEqual(pySplit(bleuTokenize(s, tokenizer, lowercase)));
      }),
      { numRuns: 1000 },
    );
  });
});

describe('internTokens / lookupTokens', () => {
  it('give the ids of internLine / lookupLine on the joined string', () => {
    const lines = [...inputs.values()].slice(0, 600);
    for (const name of TOKENIZER_NAMES) {
      const scanner = getTokenScanner(name);
      const tokenizer = getTokenizer(name);
      const [a, b] = [new Vocabulary(), new Vocabulary()];
      const [outA, outB] = [new CsrBuilder(), new CsrBuilder()];
      const tokens = new TokenBounds();
      for (const l of lines) {
        internTokens(a, bleuScan(l, scanner, false, tokens), tokens, outA);
        internLine(b, bleuTokenize(l, tokenizer, false), outB);
      }
      for (const l of lines) {
        lookupTokens(a, bleuScan(l, scanner, true, tokens), tokens, outA, -7);
        lookupLine(b, bleuTokenize(l, tokenizer, true), outB, -7);
      }
      const [csrA, csrB] = [outA.finish(), outB.finish()];
      expect(Array.from(csrA.offsets)).toEqual(Array.from(csrB.offsets));
      expect(Array.from(csrA.tokens)).toEqual(Array.from(csrB.tokens));
      expect(a.size).toBe(b.size);
      expect(Array.from(csrRow(csrA, 0))).toEqual(Array.from(csrRow(csrB, 0)));
    }
  });
});
