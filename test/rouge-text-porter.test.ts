/**
 * Stemmers of the ROUGE text layer: NLTK 3.8's PorterStemmer (three modes), ROUGE-1.5.5's Porter `stem`, its
 * WordNet 2.0 exception table and `MorphStem`, and the token each tool finally uses.
 * Golden: test/fixtures/rouge-text/porter_stems.jsonl.gz (= shared/golden/edge/porter_stems.jsonl, 3000 words;
 * see its SOURCE.md). Strings: exact equality.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { NLTK_PORTER_MODES, nltkPorterStem, type NltkPorterMode } from '../src/text/rouge/porter-nltk.js';
import { rouge155PorterStem } from '../src/text/rouge/porter-rouge155.js';
import { rouge155MorphStem, wordnetException, wordnetExceptionCount } from '../src/text/rouge/wordnet-exceptions.js';
import { finishRougeToken, resolveRougeTokenizerOptions } from '../src/text/rouge/rouge-tokenizer.js';

interface StemRecord {
  word: string;
  src: string;
  nltk: Record<NltkPorterMode, string>;
  rouge155: { morph: string; porter: string; exception: string | null };
  as_used: { rouge_score: string; rouge155_m: string };
}

function readJsonl<T>(name: string): T[] {
  const text = gunzipSync(readFileSync(new URL(`./fixtures/rouge-text/${name}.gz`, import.meta.url))).toString('utf8');
  return text
    .split('\n')
    .filter((l) => l.length > 0)
    .map((l) => JSON.parse(l) as T & { _header?: unknown })
    .filter((r) => r._header === undefined);
}

const records = readJsonl<StemRecord>('porter_stems.jsonl');

/** Words whose computed value differs from the golden one (empty = all agree), with both values. */
function mismatches(compute: (r: StemRecord) => string | null, expected: (r: StemRecord) => string | null): string[] {
  const out: string[] = [];
  for (const r of records) {
    const got = compute(r);
    if (got !== expected(r)) out.push(`${r.word}: ${String(got)} != ${String(expected(r))}`);
  }
  return out;
}

describe('stemmers against porter_stems.jsonl (3000 words)', () => {
  it('has the 3000 records', () => {
    expect(records.length).toBe(3000);
  });

  it.each(NLTK_PORTER_MODES)('NLTK 3.8 PorterStemmer(%s)', (mode) => {
    expect(mismatches((r) => nltkPorterStem(r.word, mode), (r) => r.nltk[mode])).toEqual([]);
  });

  it('ROUGE-1.5.5 stem (its Porter)', () => {
    expect(mismatches((r) => rouge155PorterStem(r.word), (r) => r.rouge155.porter)).toEqual([]);
  });

  it('ROUGE-1.5.5 exception table value (null when absent)', () => {
    expect(mismatches((r) => wordnetException(r.word) ?? null, (r) => r.rouge155.exception)).toEqual([]);
  });

  it('ROUGE-1.5.5 MorphStem', () => {
    expect(mismatches((r) => rouge155MorphStem(r.word), (r) => r.rouge155.morph)).toEqual([]);
  });

  it('the token rouge-score uses (NLTK_EXTENSIONS on words longer than 3)', () => {
    const options = resolveRougeTokenizerOptions({ tokenizer: 'rouge-score', stem: true });
    expect(mismatches((r) => finishRougeToken(r.word, options), (r) => r.as_used.rouge_score)).toEqual([]);
  });

  it('the token ROUGE-1.5.5 -m uses (MorphStem on words longer than 3)', () => {
    const options = resolveRougeTokenizerOptions({ tokenizer: 'rouge155', stem: true });
    expect(mismatches((r) => finishRougeToken(r.word, options), (r) => r.as_used.rouge155_m)).toEqual([]);
  });

  it('covers every word source of the generator', () => {
    expect(new Set(records.map((r) => r.src))).toEqual(
      new Set(['alnum', 'corpus', 'irregular_or_porter_probe', 'porter_probe', 'wordnet_exception']),
    );
  });
});

describe("ROUGE-1.5.5's Porter quirks (from the Perl source; hand-derived)", () => {
  it.each([
    // Step 4 retries -ment and -ent after -ement failed: NLTK and the 1980 paper keep these words.
    ['agreement', 'agreem', 'agreement'],
    ['argument', 'argum', 'argument'],
    ['statement', 'statem', 'statement'],
    // -ement succeeds when the stem is long enough; both agree.
    ['replacement', 'replac', 'replac'],
  ])('%s → %s (NLTK: %s)', (word, rouge, nltk) => {
    expect(rouge155PorterStem(word)).toBe(rouge);
    expect(nltkPorterStem(word)).toBe(nltk);
  });

  it('leaves words shorter than 3 characters alone and stems 3-letter words', () => {
    expect(rouge155PorterStem('as')).toBe('as');
    expect(rouge155PorterStem('is')).toBe('is');
    expect(rouge155PorterStem('ies')).toBe('i');
    expect(nltkPorterStem('ies', 'NLTK_EXTENSIONS')).toBe('i');
  });

  it('treats a word-initial y as a consonant and gives it back lower-case', () => {
    expect(rouge155PorterStem('yelling')).toBe('yell');
    expect(rouge155PorterStem('youth')).toBe('youth');
    expect(rouge155PorterStem('yearly')).toBe('yearli');
  });

  it('turns a final y into i after any vowel in the stem (the 1980 rule), unlike NLTK_EXTENSIONS', () => {
    expect(rouge155PorterStem('enjoy')).toBe('enjoi');
    expect(nltkPorterStem('enjoy', 'NLTK_EXTENSIONS')).toBe('enjoy');
    expect(nltkPorterStem('enjoy', 'ORIGINAL_ALGORITHM')).toBe('enjoi');
  });
});

describe('NLTK PorterStemmer modes (hand-derived from nltk/stem/porter.py)', () => {
  it.each([
    // [word, NLTK_EXTENSIONS, MARTIN_EXTENSIONS, ORIGINAL_ALGORITHM]
    ['dying', 'die', 'dy', 'dy'], // irregular form table
    ['skies', 'sky', 'ski', 'ski'],
    ['dies', 'die', 'di', 'di'], // four-letter -ies
    ['spied', 'spi', 'spi', 'spi'],
    ['died', 'die', 'di', 'di'], // four-letter -ied
    ['conformabli', 'conform', 'conform', 'conform'], // bli/abli, then step 4 -able
    ['geologi', 'geolog', 'geologi', 'geologi'], // NLTK measures the l of logi with the stem
    ['happy', 'happi', 'happi', 'happi'],
    ['is', 'is', 'is', 'i'], // only ORIGINAL_ALGORITHM stems words of 1-2 letters
    ['\u{1d482}s', '\u{1d482}s', '\u{1d482}s', '\u{1d482}'], // 2 code points (Python's len) in 3 UTF-16 units
  ])('%s → %s / %s / %s', (word, nltkExt, martin, original) => {
    expect(nltkPorterStem(word, 'NLTK_EXTENSIONS')).toBe(nltkExt);
    expect(nltkPorterStem(word, 'MARTIN_EXTENSIONS')).toBe(martin);
    expect(nltkPorterStem(word, 'ORIGINAL_ALGORITHM')).toBe(original);
  });

  it('gives every form of NLTK_EXTENSIONS\' irregular table its entry, the input lowercased or not', () => {
    const pool: [string, string][] = [
      ['sky', 'sky'], ['skies', 'sky'], ['dying', 'die'], ['lying', 'lie'], ['tying', 'tie'], ['news', 'news'],
      ['innings', 'inning'], ['inning', 'inning'], ['outings', 'outing'], ['outing', 'outing'], ['cannings', 'canning'],
      ['canning', 'canning'], ['howe', 'howe'], ['proceed', 'proceed'], ['exceed', 'exceed'], ['succeed', 'succeed'],
    ];
    for (const [form, stem] of pool) {
      expect(nltkPorterStem(form)).toBe(stem);
      expect(nltkPorterStem(form, 'NLTK_EXTENSIONS', true)).toBe(stem);
    }
    // NLTK looks the word up as given: a capital keeps it out of the table, and the algorithm stems it.
    expect(nltkPorterStem('Dying')).toBe('dy');
    expect(nltkPorterStem('Howe')).toBe('how');
  });

  it('stems an already lowercased word the same with and without being told so', () => {
    for (const word of ['running', 'häuser', 'conformabli', 'geologi', 'σας', 'i\u0307stanbul', 'straße', 'happy', 'is']) {
      for (const mode of ['NLTK_EXTENSIONS', 'MARTIN_EXTENSIONS', 'ORIGINAL_ALGORITHM'] as const) {
        expect(nltkPorterStem(word, mode, true)).toBe(nltkPorterStem(word, mode));
      }
    }
  });

  it('lowercases its input with Python rules, as PorterStemmer.stem does', () => {
    expect(nltkPorterStem('RUNNING')).toBe('run');
    // Latin-1 capitals and other scripts are lowered too; ß, ÿ and „“ are their own lowercase.
    expect(nltkPorterStem('Äpfel')).toBe('äpfel');
    expect(nltkPorterStem('\u00de\u00dfe\u00ff')).toBe('\u00fe\u00dfe\u00ff');
    expect(nltkPorterStem('\u201eH\u00e4user\u201c')).toBe('\u201eh\u00e4user\u201c');
    expect(nltkPorterStem('\u0132ssel')).toBe('\u0133ssel');
    expect(nltkPorterStem('ΣΑΣ')).toBe('σας');
    expect(nltkPorterStem('\uff21\uff22\uff23s')).toBe('\uff41\uff42\uff43'); // fullwidth ABC, then step 1a
  });
});

describe('WordNet 2.0 exception table (shipped in src/resources/)', () => {
  it('resolves duplicate keys as the golden ROUGE-1.5.5 -m runs did (rouge155-resources/SOURCE.md)', () => {
    expect(wordnetException('best')).toBe('good');
    expect(wordnetException('better')).toBe('good');
    expect(wordnetException('is')).toBe('be');
    expect(wordnetException('testes')).toBe('testes');
    expect(wordnetException('involucra')).toBe('involucrum');
    expect(wordnetException('offer')).toBe('offer');
    expect(wordnetException('quizzes')).toBe('quiz');
  });

  it('keeps the first base form of a line and the forms made of [a-z0-9] only', () => {
    expect(wordnetException('geese')).toBe('goose');
    expect(wordnetException('comics')).toBe('comic_strip');
    expect(wordnetException('militated_against')).toBeUndefined();
    expect(wordnetExceptionCount()).toBe(5630);
  });

  it('MorphStem prefers the table to the Porter stemmer', () => {
    expect(rouge155MorphStem('children')).toBe('child');
    expect(rouge155MorphStem('ran')).toBe('run');
    expect(rouge155MorphStem('running')).toBe('run');
    expect(rouge155MorphStem('Geese')).toBe('goose');
  });
});
