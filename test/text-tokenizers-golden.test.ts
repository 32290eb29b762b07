/**
 * Every tokenizer against sacreBLEU 2.6.0 on the 3000 edge-case lines of golden/edge (copied to
 * test/fixtures/edge-tok): the raw tokenizer (`tok`), after Python `lower()` (`tok_lc`), and BLEU's own path
 * with `rstrip()` (`bleu`, `bleu_lc`; absent in the golden where equal to `tok`/`tok_lc`). Exact string equality.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { pyLower } from '../src/text/pystr.js';
import { bleuTokenize, getTokenizer } from '../src/text/tokenizers/index.js';

const FIXTURES = new URL('./fixtures/edge-tok/', import.meta.url);

function readJsonl(name: string): Record<string, unknown>[] {
  const text = gunzipSync(readFileSync(new URL(`${name}.gz`, FIXTURES))).toString('utf8');
  return text
    .split('\n')
    .filter((l) => l.length > 0)
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((r) => !('_header' in r));
}

const inputs = new Map<number, string>();
for (const r of readJsonl('inputs.jsonl')) inputs.set(r.id as number, r.text as string);

const FIELDS = ['tok', 'tok_lc', 'bleu', 'bleu_lc'] as const;

describe.each(['13a', 'intl', 'zh', 'char', 'none'])('tokenizer %s vs sacreBLEU 2.6.0 (golden/edge)', (name) => {
  const records = readJsonl(`sacrebleu_tok_${name}.jsonl`);
  const tokenizer = getTokenizer(name);

  it('covers all 3000 input lines', () => {
    expect(records.length).toBe(3000);
    expect(new Set(records.map((r) => r.id)).size).toBe(inputs.size);
  });

  it.each(FIELDS)('matches field %s exactly on every line', (field) => {
    const mismatches: string[] = [];
    for (const r of records) {
      const text = inputs.get(r.id as number)!;
      let got: string;
      let want: string;
      switch (field) {
        case 'tok':
          [got, want] = [tokenizer(text), r.tok as string];
          break;
        case 'tok_lc':
          [got, want] = [tokenizer(pyLower(text)), r.tok_lc as string];
          break;
        case 'bleu':
          [got, want] = [bleuTokenize(text, tokenizer, false), (r.bleu ?? r.tok) as string];
          break;
        case 'bleu_lc':
          [got, want] = [bleuTokenize(text, tokenizer, true), (r.bleu_lc ?? r.tok_lc) as string];
          break;
      }
      if (got !== want) mismatches.push(`line ${r.id as number}: ${JSON.stringify(text)} → ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
    }
    expect(mismatches.slice(0, 5)).toEqual([]);
    expect(mismatches.length).toBe(0);
  });
});
