/**
 * WER behaviour that the golden lines do not reach: jiwer 4.0's documented values for empty references (its README,
 * "A note on empty references", and tests/test_empty_ref.py @ jitsi/jiwer 1df972c, quoted case by case), jiwer's
 * word split (`wer_default`), hand-worked alignments where optimal alignments tie, several references, options,
 * signatures and argument errors.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InputError } from '../src/errors.js';
import { scanJiwerWords, scanPythonWords } from '../src/metrics/edit/words.js';
import { corpusScore, sentenceScore, sentenceScores, sumRows } from '../src/metrics/metric.js';
import { Wer } from '../src/metrics/wer/wer.js';
import { isPyWhitespace, pySplit, pyStrip } from '../src/text/pystr.js';
import { getTokenScanner } from '../src/text/tokenizers/index.js';
import { TokenBounds, type TokenScanner } from '../src/text/tokenizers/token-bounds.js';
import { VERSION } from '../src/version.js';

/** The words a scanner finds in a line, as strings. */
function scanned(scanner: TokenScanner, line: string): string[] {
  const bounds = new TokenBounds();
  const source = scanner(line, bounds);
  return Array.from({ length: bounds.count }, (_, k) => source.slice(bounds.start(k), bounds.end(k)));
}

/** jiwer's words of a line, as strings. */
function jiwerWords(line: string): string[] {
  return scanned(scanJiwerWords, line);
}

/**
 * jiwer 4.0's `wer_default`, transcribed literally: `re.sub(r"\s\s+", " ", s)` (a run of two or more Python
 * whitespace characters becomes one space), `s.strip()`, `[w for w in s.split(" ") if len(w) >= 1]`.
 */
function jiwerDefaultTransform(line: string): string[] {
  let collapsed = '';
  for (let i = 0; i < line.length; ) {
    let end = i;
    while (end < line.length && isPyWhitespace(line.charCodeAt(end))) end++;
    if (end - i >= 2) {
      collapsed += ' ';
      i = end;
    } else {
      collapsed += line[i];
      i++;
    }
  }
  return pyStrip(collapsed).split(' ').filter((w) => w.length >= 1);
}

/** `jiwer.process_words(refs, hyps)` with one reference stream: the corpus score's details. */
function process(refs: string | string[], hyps: string | string[]): Record<string, number> {
  const r = typeof refs === 'string' ? [refs] : refs;
  const h = typeof hyps === 'string' ? [hyps] : hyps;
  return corpusScore(new Wer(), h, [r]).details as Record<string, number>;
}

describe('empty references (jiwer 4.0 defined behaviour)', () => {
  it('empty reference and hypothesis: no error (test_empty_ref_empty_hyp, for 1 to 9 lines)', () => {
    for (let i = 1; i < 10; i++) {
      const out = process(new Array<string>(i).fill(''), new Array<string>(i).fill(''));
      expect([out.hits, out.deletions, out.insertions, out.substitutions]).toEqual([0, 0, 0, 0]);
      expect([out.wer, out.mer, out.wip, out.wil]).toEqual([0, 0, 1, 0]);
    }
  });

  it('empty reference: every hypothesis word is an insertion and WER is their number (test_empty_ref, _more)', () => {
    const out = process('', 'hello');
    expect([out.insertions, out.wer, out.mer, out.wip, out.wil]).toEqual([1, 1, 1, 0, 1]);
    for (let i = 2; i <= 10; i++) {
      const more = process('', Array.from({ length: i }, (_, j) => String(j)).join(' '));
      expect([more.insertions, more.wer, more.mer, more.wip, more.wil]).toEqual([i, i, 1, 0, 1]);
    }
    // README: wer('', 'silence') == 1, wer('', 'peaceful silence') == 2, insertions of 'now defined behaviour' == 3.
    expect(process('', 'silence').wer).toBe(1);
    expect(process('', 'peaceful silence').wer).toBe(2);
    expect(process('', 'now defined behaviour').insertions).toBe(3);
  });

  it('empty hypothesis: every reference word is a deletion (test_empty_hyp)', () => {
    const out = process('hello', '');
    expect([out.deletions, out.wer, out.mer, out.wip, out.wil]).toEqual([1, 1, 1, 0, 1]);
  });

  it('one empty reference among others pools its insertions (test_multiple_one_empty_ref)', () => {
    const out = process(['hello world', ''], ['hello world', 'done']);
    expect(out.insertions).toBe(1);
    // jiwer's test uses pytest.approx; the exact quotients are these.
    expect([out.wer, out.mer, out.wil, out.wip]).toEqual([1 / 2, 1 / 3, 1 - (1 * 2) / 3, (1 * 2) / 3]);
  });

  it('an empty pair adds nothing (test_one_empty_ref_and_hyp)', () => {
    expect(process(['hello world', ''], ['hello world', ''])).toEqual(process(['hello world'], ['hello world']));
  });

  it('the sentence score of an empty reference is never a division by zero', () => {
    expect(sentenceScore(new Wer(), 'a b c', ['']).score).toBe(3);
    expect(sentenceScore(new Wer(), '', ['  ']).score).toBe(0);
  });
});

describe("jiwer's word split (wer_default: RemoveMultipleSpaces, Strip, split on ' ')", () => {
  it('splits on single spaces and on runs of two or more whitespace characters', () => {
    expect(jiwerWords('hello world')).toEqual(['hello', 'world']);
    expect(jiwerWords('a  b\t\tc \td\n\ne')).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('strips whitespace of any kind at both ends', () => {
    expect(jiwerWords('\t a b \u00a0')).toEqual(['a', 'b']);
    expect(jiwerWords('\ta\u3000')).toEqual(['a']);
    expect(jiwerWords('   ')).toEqual([]);
    expect(jiwerWords('')).toEqual([]);
  });

  it('keeps one other whitespace character between two words inside the word', () => {
    expect(jiwerWords('a\tb c')).toEqual(['a\tb', 'c']);
    expect(jiwerWords('10\u00a0000 euros')).toEqual(['10\u00a0000', 'euros']);
    expect(jiwerWords('x\u2009y\u2009z')).toEqual(['x\u2009y\u2009z']);
  });

  it('uses Python whitespace: U+001F and U+0085 are whitespace, U+200B and U+FEFF are not', () => {
    expect(jiwerWords('a\u001f\u001fb')).toEqual(['a', 'b']);
    expect(jiwerWords('a\u0085 b')).toEqual(['a', 'b']);
    expect(jiwerWords('a\u200b\u200bb \ufeff')).toEqual(['a\u200b\u200bb', '\ufeff']);
  });

  it('equals a literal transcription of the transform on any text', () => {
    const text = fc.array(fc.constantFrom('a', 'b', ' ', '\t', '\n', '\u00a0', '\u0085', '\u200b', '\u3000', '\u001f', 'é'), { maxLength: 40 });
    fc.assert(
      fc.property(text, (chars) => {
        const line = chars.join('');
        expect(jiwerWords(line)).toEqual(jiwerDefaultTransform(line));
      }),
      { numRuns: 500 },
    );
  });

  it('the whitespace split of tokenize none equals Python str.split() and sacrebleu\'s none scanner', () => {
    const text = fc.array(fc.constantFrom('a', 'b', ' ', '\t', '\u00a0', '\u0085', '\u200b', '\u2028', '\u001c', '!'), { maxLength: 40 });
    const none = getTokenScanner('none');
    fc.assert(
      fc.property(text, (chars) => {
        const line = chars.join('');
        expect(scanned(scanPythonWords, line)).toEqual(pySplit(line));
        expect(scanned(scanPythonWords, line)).toEqual(scanned(none, line));
      }),
      { numRuns: 500 },
    );
  });

  it('so a lone tab makes one word where a whitespace split makes two', () => {
    expect(sentenceScore(new Wer(), 'a b', ['a\tb']).details).toMatchObject({ substitutions: 1, insertions: 1 });
    expect(sentenceScore(new Wer({ tokenize: 'none' }), 'a b', ['a\tb']).score).toBe(0);
  });
});

describe('alignment counts where optimal alignments tie (RapidFuzz editops, hand-worked)', () => {
  it('"a b" → "b c": two substitutions, not delete a / keep b / insert c', () => {
    // Table rows = reference (a, b), columns = hypothesis (b, c): D[2][2] = 2 = D[1][2], so no deletion at (2, 2);
    // one column back, D[2][1] − D[1][1] = 0, not −1, so no insertion: diagonal (b/c), then (a/b) diagonally too.
    const out = sentenceScore(new Wer(), 'b c', ['a b']).details!;
    expect([out.hits, out.substitutions, out.deletions, out.insertions]).toEqual([0, 2, 0, 0]);
    expect([out.wer, out.mer, out.wip]).toEqual([1, 1, 0]);
  });

  it('the common prefix and suffix are matched first: "x a b y" → "x b c y" is "a b" → "b c" inside', () => {
    const out = sentenceScore(new Wer(), 'x b c y', ['x a b y']).details!;
    expect([out.hits, out.substitutions, out.deletions, out.insertions]).toEqual([2, 2, 0, 0]);
  });

  it('a repeated word: "a a" → "a" deletes the second a (the prefix is cut first)', () => {
    const out = sentenceScore(new Wer(), 'a', ['a a']).details!;
    expect([out.hits, out.substitutions, out.deletions, out.insertions]).toEqual([1, 0, 1, 0]);
  });

  it('jiwer README: "hello world" → "hello duck" has WER 0.5', () => {
    expect(sentenceScore(new Wer(), 'hello duck', ['hello world']).score).toBe(0.5);
  });
});

describe('several references', () => {
  it('counts each line against the reference with the fewest edits, divided by its length', () => {
    // "a b c" vs "a b c d e": 2 deletions (of 5 words); vs "a x c": 1 substitution (of 3).
    const score = sentenceScore(new Wer(), 'a b c', ['a b c d e', 'a x c']);
    expect(score.score).toBe(1 / 3);
    expect(score.details).toMatchObject({ hits: 2, substitutions: 1, deletions: 0, insertions: 0 });
  });

  it('takes the first reference on ties in the number of edits', () => {
    // Both need one edit: an insertion against "a b" (2 words), a deletion against "a b c d" (4 words).
    expect(sentenceScore(new Wer(), 'a b c', ['a b', 'a b c d']).score).toBe(1 / 2);
    expect(sentenceScore(new Wer(), 'a b c', ['a b c d', 'a b']).score).toBe(1 / 4);
  });

  it('pools the chosen references over a corpus', () => {
    const wer = new Wer();
    const refs = wer.prepareReferences([['a b', 'x y z'], ['a b c', 'x y']]);
    const rows = wer.segmentStats(['a b c', 'x y'], refs);
    // Line 1: "a b c" exact (second stream); line 2: "x y" exact (second stream).
    expect(Array.from(rows)).toEqual([3, 0, 0, 0, 2, 0, 0, 0]);
    expect(wer.scoreFromStats(sumRows(rows, 4)).score).toBe(0);
  });
});

describe('options, statistics and signature', () => {
  it('is case-sensitive by default; lowercase folds with Python str.lower()', () => {
    expect(sentenceScore(new Wer(), 'Hello World', ['hello world']).score).toBe(1);
    expect(sentenceScore(new Wer({ lowercase: true }), 'HELLO WORLD', ['hello world']).score).toBe(0);
    expect(sentenceScore(new Wer({ lowercase: true }), 'İ', ['i̇']).score).toBe(0);
  });

  it('takes any sacrebleu tokenizer: 13a splits punctuation off', () => {
    expect(sentenceScore(new Wer(), 'Hello, world.', ['Hello world']).score).toBe(1);
    const out = sentenceScore(new Wer({ tokenize: '13a' }), 'Hello, world.', ['Hello world']).details!;
    expect([out.hits, out.insertions]).toEqual([2, 2]);
  });

  it('rows are hits, substitutions, deletions, insertions; the corpus score is from their sums', () => {
    const wer = new Wer();
    expect(wer.statsColumns).toEqual(['hits', 'substitutions', 'deletions', 'insertions']);
    expect(wer.statsWidth).toBe(4);
    const hyps = ['the cat sat', 'on the the mat', ''];
    const refs = [['the cat sat down', 'on the mat', 'hello']];
    const rows = wer.segmentStats(hyps, wer.prepareReferences(refs));
    expect(Array.from(rows)).toEqual([3, 0, 1, 0, 3, 0, 0, 1, 0, 0, 1, 0]);
    const corpus = wer.scoreFromStats(sumRows(rows, 4));
    expect(corpus.score).toBe(3 / 8);
    expect(corpus.name).toBe('WER');
    expect(corpus.verboseScore).toBe('(H = 6, S = 0, D = 2, I = 1, ref words = 8)');
    expect(sentenceScores(wer, hyps, refs).map((s) => s.score)).toEqual([1 / 4, 1 / 3, 1]);
  });

  it('signature: nrefs, case, tok and version', () => {
    expect(new Wer().signature(1)).toBe(`nrefs:1|case:mixed|tok:jiwer|version:${VERSION}`);
    expect(new Wer({ lowercase: true, tokenize: '13a' }).signature(2, true)).toBe(`#:2|c:lc|tok:13a|v:${VERSION}`);
    expect(new Wer().signature(-1)).toBe(`nrefs:var|case:mixed|tok:jiwer|version:${VERSION}`);
  });
});

describe('argument errors', () => {
  it('rejects unknown word splits and non-boolean lowercase with E_BAD_OPTION', () => {
    expect(() => new Wer({ tokenize: 'words' as never })).toThrow(InputError);
    expect(() => new Wer({ tokenize: 'words' as never })).toThrow(/tokenize must be one of jiwer, 13a/);
    expect(() => new Wer({ lowercase: 'yes' as never })).toThrow(/lowercase must be a boolean/);
  });

  it('rejects streams of different lengths, and hypotheses that do not match the references', () => {
    const wer = new Wer();
    expect(() => wer.prepareReferences([])).toThrow(expect.objectContaining({ code: 'E_EMPTY_INPUT' }));
    expect(() => wer.prepareReferences([['a'], ['a', 'b']])).toThrow(expect.objectContaining({ code: 'E_LINE_COUNT_MISMATCH' }));
    expect(() => wer.segmentStats(['a', 'b'], wer.prepareReferences([['a']]))).toThrow(
      expect.objectContaining({ code: 'E_LINE_COUNT_MISMATCH' }),
    );
  });

  it('refuses references prepared with other options', () => {
    const refs = new Wer({ lowercase: true }).prepareReferences([['a']]);
    expect(() => new Wer().segmentStats(['a'], refs)).toThrow(TypeError);
  });

  it('refuses statistics of the wrong width or with non-count values', () => {
    expect(() => new Wer().scoreFromStats(new Float64Array(3))).toThrow(RangeError);
    expect(() => new Wer().scoreFromStats(Float64Array.from([1, -1, 0, 0]))).toThrow(RangeError);
  });
});
