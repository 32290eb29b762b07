/**
 * ROUGE tokenizers (rouge155, rouge-score, rouge-unicode), string and interning paths.
 * Goldens (test/fixtures/rouge-text/, byte-identical copies of shared/golden/edge/, see SOURCE.md):
 * - rouge_score_tok.jsonl: rouge-score 0.1.2 tokens of 3000 adversarial lines, without and with the stemmer;
 * - rouge155_r1_lines.jsonl: ROUGE-1.5.5 ROUGE-1 model/peer/hit counts of 200 lines vs a fixed reference, for
 *   plain, -m, -s, -m -s (hits recomputed here as clipped unigram counts: ROUGE-1 itself is not in this layer);
 * - pairs_rouge155.jsonl: ROUGE-1.5.5 ROUGE-1 counts of 199 hypothesis/reference pairs, without and with -m.
 * Integers and strings: exact. Property tests compare the scanners with the oracles' regex pipelines.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CsrBuilder, csrRow } from '../src/text/csr.js';
import { InputError } from '../src/errors.js';
import { tokenHash, Vocabulary } from '../src/text/intern.js';
import { pyLower } from '../src/text/pystr.js';
import { nltkPorterStem } from '../src/text/rouge/porter-nltk.js';
import { RougeInterner, rougeTokens, type RougeTokenizerOptions } from '../src/text/rouge/rouge-tokenizer.js';
import { scanRouge155, scanRougeScore, scanRougeUnicode, SpanList } from '../src/text/rouge/rouge-scanners.js';
import { isSmartStopword } from '../src/text/rouge/smart-stopwords.js';
import { rouge155MorphStem } from '../src/text/rouge/wordnet-exceptions.js';

function readJsonl<T>(name: string): { header: Record<string, unknown>; records: T[] } {
  const text = gunzipSync(readFileSync(new URL(`./fixtures/rouge-text/${name}.gz`, import.meta.url))).toString('utf8');
  const rows = text
    .split('\n')
    .filter((l) => l.length > 0)
    .map((l) => JSON.parse(l) as T & { _header?: Record<string, unknown> });
  return { header: rows[0]._header ?? {}, records: rows.filter((r) => r._header === undefined) };
}

const inputs = new Map(readJsonl<{ id: number; text: string }>('inputs.jsonl').records.map((r) => [r.id, r.text]));

/** ROUGE-1.5.5's unigram hits: Σ over model tokens of min(model count, peer count). */
function clippedHits(model: readonly string[], peer: readonly string[]): number {
  const counts = new Map<string, number>();
  for (const t of peer) counts.set(t, (counts.get(t) ?? 0) + 1);
  const modelCounts = new Map<string, number>();
  for (const t of model) modelCounts.set(t, (modelCounts.get(t) ?? 0) + 1);
  let hits = 0;
  for (const [t, c] of modelCounts) hits += Math.min(c, counts.get(t) ?? 0);
  return hits;
}

/** Tokens through the interning path, read back as strings. */
function internedTokens(text: string, options: RougeTokenizerOptions): string[] {
  const interner = new RougeInterner(options);
  const out = new CsrBuilder();
  interner.internLine(text, out);
  interner.internLine(text, out); // second pass: every spelling now comes from the cache
  const csr = out.finish();
  const first = Array.from(csrRow(csr, 0), (id) => interner.vocabulary.token(id));
  const second = Array.from(csrRow(csr, 1), (id) => interner.vocabulary.token(id));
  expect(second).toEqual(first);
  return first;
}

describe('rouge-score tokenizer against rouge_score_tok.jsonl (3000 lines)', () => {
  const { records } = readJsonl<{ id: number; tokens: string[]; tokens_stem: string[] }>('rouge_score_tok.jsonl');

  it('has 3000 records', () => {
    expect(records.length).toBe(3000);
  });

  it('tokens (use_stemmer=False), string path', () => {
    const bad = records.filter((r) => JSON.stringify(rougeTokens(inputs.get(r.id)!, { tokenizer: 'rouge-score' })) !== JSON.stringify(r.tokens));
    expect(bad.map((r) => r.id)).toEqual([]);
  });

  it('tokens_stem (use_stemmer=True), string path', () => {
    const options = { tokenizer: 'rouge-score', stem: true } as const;
    const bad = records.filter((r) => JSON.stringify(rougeTokens(inputs.get(r.id)!, options)) !== JSON.stringify(r.tokens_stem));
    expect(bad.map((r) => r.id)).toEqual([]);
  });

  it('both, interning path with one shared vocabulary', () => {
    const vocab = new Vocabulary();
    const plain = new RougeInterner({ tokenizer: 'rouge-score' }, vocab);
    const stem = new RougeInterner({ tokenizer: 'rouge-score', stem: true }, vocab);
    const bad: number[] = [];
    for (const r of records) {
      const text = inputs.get(r.id)!;
      const a = plain.ids(text).map((id) => vocab.token(id));
      const b = stem.ids(text).map((id) => vocab.token(id));
      if (JSON.stringify(a) !== JSON.stringify(r.tokens) || JSON.stringify(b) !== JSON.stringify(r.tokens_stem)) bad.push(r.id);
    }
    expect(bad).toEqual([]);
  });
});

type R1 = { model_count: number; peer_count: number; hit_count: number };

describe('rouge155 tokenizer against rouge155_r1_lines.jsonl (200 lines x 4 option sets)', () => {
  const { header, records } = readJsonl<{ id: number } & Record<'plain' | 'm' | 's' | 'ms', R1>>('rouge155_r1_lines.jsonl');
  const reference = header.fixed_reference as string;
  const OPTION_SETS = {
    plain: { stem: false, removeStopwords: false },
    m: { stem: true, removeStopwords: false },
    s: { stem: false, removeStopwords: true },
    ms: { stem: true, removeStopwords: true },
  } as const;

  it('has 200 records and the fixed reference', () => {
    expect(records.length).toBe(200);
    expect(reference.length).toBeGreaterThan(0);
  });

  it.each(Object.keys(OPTION_SETS) as (keyof typeof OPTION_SETS)[])('option set %s: model/peer token counts and unigram hits', (key) => {
    const options: RougeTokenizerOptions = { tokenizer: 'rouge155', ...OPTION_SETS[key] };
    const model = rougeTokens(reference, options);
    const interner = new RougeInterner(options);
    const modelIds = interner.ids(reference).map(String);
    const bad: string[] = [];
    for (const r of records) {
      const text = inputs.get(r.id)!;
      const peer = rougeTokens(text, options);
      const peerIds = interner.ids(text).map(String);
      const expected = r[key];
      const got = { model_count: model.length, peer_count: peer.length, hit_count: clippedHits(model, peer) };
      if (
        got.model_count !== expected.model_count ||
        got.peer_count !== expected.peer_count ||
        got.hit_count !== expected.hit_count ||
        clippedHits(modelIds, peerIds) !== expected.hit_count ||
        peerIds.length !== expected.peer_count
      ) {
        bad.push(`${r.id}: ${JSON.stringify(got)} != ${JSON.stringify(expected)}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('tokenizes the fixed reference as ROUGE-1.5.5 does (hand-checked against its -m counts)', () => {
    expect(rougeTokens(reference, { tokenizer: 'rouge155', stem: true }).join(' ')).toBe(
      'the u s economi s 3 14 growth in the 1990 well know wasn t it run runner ran 1 000 km 5 6 hour child s ' +
        'goose be good than the good skip caf na ve stanbul x ray e mail 42 cat',
    );
  });
});

describe('rouge155 tokenizer against pairs_rouge155.jsonl (199 pairs, ROUGE-1 counts)', () => {
  const pairs = new Map(readJsonl<{ pair: number; hyp: string; ref: string }>('pairs.jsonl').records.map((p) => [p.pair, p]));
  const { records } = readJsonl<{ pair: number } & Record<'counts_nostem' | 'counts_stem', Record<string, R1>>>('pairs_rouge155.jsonl');

  it.each([
    ['counts_nostem', false],
    ['counts_stem', true],
  ] as const)('%s', (field, stem) => {
    expect(records.length).toBe(199);
    const bad: string[] = [];
    for (const r of records) {
      const { hyp, ref } = pairs.get(r.pair)!;
      const model = rougeTokens(ref, { tokenizer: 'rouge155', stem });
      const peer = rougeTokens(hyp, { tokenizer: 'rouge155', stem });
      const expected = r[field]['ROUGE-1'];
      const got = { model_count: model.length, peer_count: peer.length, hit_count: clippedHits(model, peer) };
      if (JSON.stringify(got) !== JSON.stringify({ model_count: expected.model_count, peer_count: expected.peer_count, hit_count: expected.hit_count })) {
        bad.push(`${r.pair}: ${JSON.stringify(got)} != ${JSON.stringify(expected)}`);
      }
    }
    expect(bad).toEqual([]);
  });
});

// ---- Reference pipelines: the oracles' own steps, written naively, for the property tests.

/** ROUGE-1.5.5 on the UTF-8 bytes of `text`: lowercase, `-` → ` - `, non-[A-Za-z0-9-] → space, split, `^[a-z0-9$]`. */
function rouge155Reference(text: string, stem: boolean, removeStopwords: boolean): string[] {
  let bytes = Buffer.from(text, 'utf8').toString('latin1');
  bytes = bytes.replace(/[A-Z]/g, (c) => c.toLowerCase());
  bytes = bytes.replace(/-/g, ' - ').replace(/[^A-Za-z0-9-]/g, ' ');
  const out: string[] = [];
  for (const t of bytes.split(/\s+/)) {
    if (t === '' || (removeStopwords && isSmartStopword(t)) || !/^[a-z0-9$]/.test(t)) continue;
    out.push(stem && t.length > 3 ? rouge155MorphStem(t) : t);
  }
  return out;
}

/** rouge_score.tokenize.tokenize: lower(), [^a-z0-9]+ → space, split, stem (> 3 chars), keep ^[a-z0-9]+$. */
function rougeScoreReference(text: string, stem: boolean): string[] {
  const tokens = pyLower(text).replace(/[^a-z0-9]+/g, ' ').split(/\s+/);
  return tokens.map((t) => (stem && t.length > 3 ? nltkPorterStem(t) : t)).filter((t) => /^[a-z0-9]+$/.test(t));
}

/** rouge-unicode by definition: the runs of \p{L}\p{M}\p{N} in pyLower(text) (runtime tables: stable letters only). */
function rougeUnicodeReference(text: string): string[] {
  return pyLower(text)
    .split(/[^\p{L}\p{M}\p{N}]+/u)
    .filter((t) => t.length > 0);
}

// Letters, digits, separators and the troublesome code points (U+0130, U+212A, final sigma, a combining mark,
// an astral letter, a lone surrogate, NBSP) whose Unicode properties did not change between versions.
const ALPHABET = [
  'a', 'B', 'z', 'Z', '0', '9', ' ', '-', '.', "'", '$', '_', '\n', '\t', '\u00a0', '\u0130', '\u212a', '\u03a3',
  '\u03c3', '\u00e9', 'e\u0301', '\u00df', '\u1e9e', '\u65e5', '\u0661', '\u{1d400}', '\u{1f600}', '\ud800', '\u00c5',
  'ing', 'ed', 'ies', 'ment', 'y', 'sses', 'the', 'agreement', 'Running',
];
const textArb = fc.array(fc.constantFrom(...ALPHABET), { maxLength: 40 }).map((parts) => parts.join(''));

describe('scanners equal the oracles\u2019 regex pipelines (property tests)', () => {
  it('rouge155 = the byte pipeline, every option set, string and interning paths', () => {
    fc.assert(
      fc.property(textArb, fc.boolean(), fc.boolean(), (text, stem, removeStopwords) => {
        const expected = rouge155Reference(text, stem, removeStopwords);
        const options = { tokenizer: 'rouge155', stem, removeStopwords } as const;
        expect(rougeTokens(text, options)).toEqual(expected);
        expect(internedTokens(text, options)).toEqual(expected);
      }),
      { numRuns: 400 },
    );
  });

  it('rouge-score = lower() + regexes, with and without the stemmer', () => {
    fc.assert(
      fc.property(textArb, fc.boolean(), (text, stem) => {
        const expected = rougeScoreReference(text, stem);
        const options = { tokenizer: 'rouge-score', stem } as const;
        expect(rougeTokens(text, options)).toEqual(expected);
        expect(internedTokens(text, options)).toEqual(expected);
      }),
      { numRuns: 400 },
    );
  });

  it('rouge-unicode = runs of letters, marks and numbers of the lowercased text', () => {
    fc.assert(
      fc.property(textArb, (text) => {
        const expected = rougeUnicodeReference(text);
        expect(rougeTokens(text, { tokenizer: 'rouge-unicode' })).toEqual(expected);
        expect(internedTokens(text, { tokenizer: 'rouge-unicode' })).toEqual(expected);
      }),
      { numRuns: 400 },
    );
  });

  it('scanners hash each span exactly as tokenHash (the interner probes the vocabulary with these hashes)', () => {
    const spans = new SpanList();
    const scanners: [string, (text: string) => string][] = [
      ['rouge155', (t) => (scanRouge155(t, spans), t)],
      ['rouge-score', (t) => (scanRougeScore(t, spans), t)],
      ['rouge-unicode', (t) => scanRougeUnicode(t, spans)],
    ];
    fc.assert(
      fc.property(textArb, (text) => {
        for (const [, scan] of scanners) {
          spans.clear();
          const source = scan(text);
          for (let k = 0; k < spans.count; k++) expect(spans.hash(k)).toBe(tokenHash(source, spans.start(k), spans.end(k)));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('only U+0130 and U+212A lowercase (Python, Unicode 14.0) to something holding [a-z0-9]', () => {
    // The rouge-score scanner relies on this to skip lower() entirely.
    const found: number[] = [];
    for (let cp = 0x80; cp < 0x110000; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      if (/[a-z0-9]/.test(pyLower(String.fromCodePoint(cp)))) found.push(cp);
    }
    expect(found).toEqual([0x130, 0x212a]);
  });
});

describe('rouge-unicode behaviour', () => {
  it.each([
    ['Straße İstanbul', ['straße', 'i̇stanbul']],
    ['ΟΔΟΣ Σοφία', ['οδος', 'σοφία']],
    ['日本語のテキスト', ['日本語のテキスト']],
    ['café e\u0301 naïve', ['café', 'e\u0301', 'naïve']],
    ['٣١ 42 ½', ['٣١', '42', '½']],
    ['don\u2019t x-ray, 3.14', ['don', 't', 'x', 'ray', '3', '14']],
    ['\u{1d400}\u{1d401} \u{1f600}', ['\u{1d400}\u{1d401}']],
  ])('%s', (text, expected) => {
    expect(rougeTokens(text, { tokenizer: 'rouge-unicode' })).toEqual(expected);
  });

  it('stems only the tokens made of [a-z0-9] (NLTK_EXTENSIONS)', () => {
    expect(rougeTokens('Running läufer walking', { tokenizer: 'rouge-unicode', stem: true })).toEqual(['run', 'läufer', 'walk']);
  });

  it('differs from rouge155 exactly where non-ASCII letters are involved', () => {
    expect(rougeTokens('naïve café', { tokenizer: 'rouge155' })).toEqual(['na', 've', 'caf']);
    expect(rougeTokens('naïve café', { tokenizer: 'rouge-score' })).toEqual(['na', 've', 'caf']);
    expect(rougeTokens('\u0130 \u212a', { tokenizer: 'rouge155' })).toEqual([]);
    expect(rougeTokens('İstanbul \u212aelvin', { tokenizer: 'rouge-score' })).toEqual(['i', 'stanbul', 'kelvin']);
  });
});

describe('rouge155 and rouge-score behaviour (hand-derived from the oracles\u2019 code)', () => {
  it('rouge155 splits hyphens and drops them, keeps digits, drops the apostrophe', () => {
    expect(rougeTokens("well-known, wasn't it? $5 -- e-mail", { tokenizer: 'rouge155' })).toEqual([
      'well', 'known', 'wasn', 't', 'it', '5', 'e', 'mail',
    ]);
  });

  it('-s removes SMART stopwords before stemming, -m stems tokens longer than 3 only', () => {
    expect(rougeTokens('The agreement was signed by all the parties', { tokenizer: 'rouge155', removeStopwords: true })).toEqual([
      'agreement', 'signed', 'parties',
    ]);
    expect(rougeTokens('The agreement was signed by all the parties', { tokenizer: 'rouge155', stem: true })).toEqual([
      'the', 'agreem', 'was', 'sign', 'by', 'all', 'the', 'parti',
    ]);
    expect(rougeTokens('ran runs ies', { tokenizer: 'rouge155', stem: true })).toEqual(['ran', 'run', 'ies']);
  });

  it('rouge-score stems with NLTK and has no exception table', () => {
    expect(rougeTokens('The agreement was signed by all the parties', { tokenizer: 'rouge-score', stem: true })).toEqual([
      'the', 'agreement', 'was', 'sign', 'by', 'all', 'the', 'parti',
    ]);
  });

  it('empty and separator-only texts give no tokens', () => {
    for (const tokenizer of ['rouge155', 'rouge-score', 'rouge-unicode'] as const) {
      expect(rougeTokens('', { tokenizer })).toEqual([]);
      expect(rougeTokens(' -- ... \n', { tokenizer })).toEqual([]);
    }
  });
});

describe('RougeInterner', () => {
  it('maps spellings that lowercase (and stem) alike to one id, shared between interners', () => {
    const vocab = new Vocabulary();
    const stemmed = new RougeInterner({ tokenizer: 'rouge155', stem: true }, vocab);
    const plain = new RougeInterner({ tokenizer: 'rouge155' }, vocab);
    const ids = stemmed.ids('Running RUNNING running runs');
    expect(ids).toEqual([ids[0], ids[0], ids[0], ids[0]]);
    expect(vocab.token(ids[0])).toBe('run');
    expect(plain.ids('run')).toEqual([ids[0]]);
    expect(plain.ids('Running').map((id) => vocab.token(id))).toEqual(['running']);
  });

  it('appends rows: internLine closes one, appendIds leaves it open, internSentences one per sentence', () => {
    const interner = new RougeInterner({ tokenizer: 'rouge-score' });
    const out = new CsrBuilder();
    expect(interner.appendIds('a b', out)).toBe(2);
    expect(interner.appendIds('c', out)).toBe(1);
    out.endRow();
    interner.internLine('', out);
    expect(interner.internSentences(['b a .', 'd'], out)).toBe(2);
    const csr = out.finish();
    expect(Array.from(csr.offsets)).toEqual([0, 3, 3, 5, 6]);
    expect(Array.from(csr.tokens, (id) => interner.vocabulary.token(id)).join(' ')).toBe('a b c b a d');
  });

  it('drops stopwords without giving them an id', () => {
    const interner = new RougeInterner({ tokenizer: 'rouge155', removeStopwords: true });
    expect(interner.ids('the THE cat').map((id) => interner.vocabulary.token(id))).toEqual(['cat']);
    expect(interner.vocabulary.size).toBe(1);
  });

  it('rejects an unknown tokenizer with E_UNKNOWN_TOKENIZER', () => {
    const bad = { tokenizer: 'rouge-1.5.5' } as unknown as RougeTokenizerOptions;
    expect(() => new RougeInterner(bad)).toThrow(InputError);
    expect(() => rougeTokens('x', bad)).toThrow(/unknown tokenizer "rouge-1\.5\.5" \(expected one of: rouge155, rouge-score, rouge-unicode\)/);
    try {
      rougeTokens('x', bad);
    } catch (e) {
      expect((e as InputError).code).toBe('E_UNKNOWN_TOKENIZER');
    }
  });

  it('defaults to rouge155 without stemming or stopword removal', () => {
    expect(new RougeInterner().options).toEqual({ tokenizer: 'rouge155', stem: false, removeStopwords: false });
  });
});

describe('src/text/rouge/index.ts', () => {
  it('re-exports the layer', async () => {
    const rouge = await import('../src/text/rouge/index.js');
    for (const name of ['RougeInterner', 'rougeTokens', 'nltkPorterStem', 'rouge155PorterStem', 'rouge155MorphStem', 'isSmartStopword', 'truncateRouge155', 'splitSentences', 'internRougeSummary']) {
      expect(typeof (rouge as Record<string, unknown>)[name], name).toBe('function');
    }
    expect(rouge.ROUGE_TOKENIZER_NAMES).toEqual(['rouge155', 'rouge-score', 'rouge-unicode']);
  });
});
