/**
 * sacreBLEU's TercomTokenizer against its goldens (exact string equality):
 * - test/fixtures/ter/sacrebleu_ter_tok.jsonl.gz and sacrebleu_ter_tok_combos.jsonl.gz (copies of
 *   shared/golden/edge/, see test/fixtures/ter/SOURCE.md): 3000 adversarial lines × 9 option sets, plus the
 *   `<variant>@rstrip` values (what TER itself tokenizes: the line right-stripped first);
 * - sacreBLEU's own test_tokenizer_ter.py cases (test/fixtures/ter/unit_test_cases_ter.json);
 * - that the fixtures still equal the shared originals (skipped when ../shared is absent).
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { pyRstrip } from '../src/text/pystr.js';
import { TercomTokenizer, type TercomTokenizerOptions } from '../src/text/tokenizers/tercom-tokenizer.js';
import { SHARED, haveShared } from './helpers/shared-data.js';

const FIXTURES = new URL('./fixtures/ter/', import.meta.url);
const SHARED_EDGE = new URL('golden/edge/', SHARED);

function readJsonl(url: URL): Record<string, unknown>[] {
  const text = gunzipSync(readFileSync(url)).toString('utf8');
  return text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** sacreBLEU keyword arguments (as the golden headers give them) → our options. */
function toOptions(kwargs: Record<string, boolean>): TercomTokenizerOptions {
  return {
    normalized: kwargs.normalized ?? false,
    noPunct: kwargs.no_punct ?? false,
    asianSupport: kwargs.asian_support ?? false,
    caseSensitive: kwargs.case_sensitive ?? false,
  };
}

const inputs = readJsonl(new URL('./fixtures/edge-tok/inputs.jsonl.gz', import.meta.url)).slice(1);
const texts = new Map<number, string>(inputs.map((r) => [r.id as number, r.text as string]));

describe.each(['sacrebleu_ter_tok.jsonl', 'sacrebleu_ter_tok_combos.jsonl'])('%s', (file) => {
  const [headerLine, ...records] = readJsonl(new URL(`${file}.gz`, FIXTURES));
  const header = headerLine._header as { variants: Record<string, Record<string, boolean>> };
  it('has 3000 records', () => {
    expect(records.length).toBe(3000);
  });
  it.each(Object.keys(header.variants))('variant %s', (variant) => {
    const tok = new TercomTokenizer(toOptions(header.variants[variant]));
    const wrong: string[] = [];
    for (const r of records) {
      const text = texts.get(r.id as number);
      if (text === undefined) throw new Error(`no input line ${String(r.id)}`);
      if (tok.tokenize(text) !== r[variant]) wrong.push(`${String(r.id)}: ${JSON.stringify(tok.tokenize(text))}`);
      const stripped = r[`${variant}@rstrip`] ?? r[variant];
      if (tok.tokenize(pyRstrip(text)) !== stripped) wrong.push(`${String(r.id)}@rstrip`);
    }
    expect(wrong.slice(0, 5)).toEqual([]);
  });
});

describe("sacreBLEU's test_tokenizer_ter.py cases", () => {
  const cases = JSON.parse(readFileSync(new URL('unit_test_cases_ter.json', FIXTURES), 'utf8'))[
    'test/test_tokenizer_ter.py'
  ] as Record<string, [string, string][]>;
  const options: Record<string, TercomTokenizerOptions> = {
    test_cases_default: {},
    test_cases_no_punct: { noPunct: true },
    test_cases_norm: { normalized: true },
    test_cases_asian: { normalized: true, asianSupport: true },
  };
  it.each(Object.keys(options))('%s', (name) => {
    const tok = new TercomTokenizer(options[name]);
    expect(cases[name].length).toBeGreaterThan(0);
    for (const [input, expected] of cases[name]) expect(tok.tokenize(input)).toBe(expected);
  });
});

describe('TercomTokenizer behaviour', () => {
  it('asian_support alone changes nothing; with normalized it splits ideographs', () => {
    const line = '美众院公布对特。りの拳銃';
    expect(new TercomTokenizer({ asianSupport: true }).tokenize(line)).toBe(new TercomTokenizer().tokenize(line));
    expect(new TercomTokenizer({ normalized: true, asianSupport: true }).tokenize(line)).toBe(
      '美 众 院 公 布 对 特 。 りの 拳 銃',
    );
  });
  it("splits 's only before an ASCII space or at the end", () => {
    const tok = new TercomTokenizer({ normalized: true });
    expect(tok.tokenize("jim's car")).toBe("jim 's car");
    expect(tok.tokenize("jim's\u2005car")).toBe("jim's car");
  });
  it('signature is tercom', () => {
    expect(new TercomTokenizer().signature()).toBe('tercom');
  });
});

describe.skipIf(!haveShared('golden/edge/'))('ter fixtures equal ../shared/golden/edge', () => {
  it.each(['sacrebleu_ter_tok.jsonl', 'sacrebleu_ter_tok_combos.jsonl'])('%s', (file) => {
    const fixture = gunzipSync(readFileSync(new URL(`${file}.gz`, FIXTURES)));
    expect(fixture.equals(readFileSync(new URL(file, SHARED_EDGE)))).toBe(true);
  });
});
