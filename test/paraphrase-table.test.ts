/**
 * Paraphrase tables: the three formats and their detection, sets by pairs and by shared pivots (closed under both),
 * minimum phrase length, case, tokenization, streaming across chunk boundaries (lines and UTF-8 sequences split
 * between reads), and every malformed input reported with its file and line.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { InputError } from '../src/errors.js';
import { loadParaphraseTable, parseParaphraseTable, PhraseTrie } from '../src/text/paraphrase/index.js';

const dir = mkdtempSync(join(tmpdir(), 'palette-paraphrase-'));
function file(name: string, text: string | Uint8Array): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}
const sorted = (sets: string[][]): string[][] => sets.map((s) => [...s].sort()).sort((a, b) => (a[0] < b[0] ? -1 : 1));

function thrown(f: () => unknown): InputError {
  try {
    f();
  } catch (err) {
    if (err instanceof InputError) return err;
    throw err;
  }
  throw new Error('no error thrown');
}

describe('PhraseTrie', () => {
  it('interns phrases as nodes, prefixes included, and gives their tokens back', () => {
    const trie = new PhraseTrie();
    const ab = trie.add([1, 2], 0, 2);
    const abc = trie.add([1, 2, 3], 0, 3);
    expect(trie.add([1, 2], 0, 2)).toBe(ab);
    expect(trie.find([1], 0, 1)).toBeGreaterThan(0);
    expect(trie.find([2], 0, 1)).toBe(-1);
    expect(trie.depth(abc)).toBe(3);
    expect(Array.from(trie.phrase(abc))).toEqual([1, 2, 3]);
    // Growth past several rehashes keeps every edge.
    const nodes = Array.from({ length: 5000 }, (_, i) => trie.add([i, i + 1, 7], 0, 3));
    nodes.forEach((n, i) => expect(trie.find([i, i + 1, 7], 0, 3)).toBe(n));
  });
});

describe('paraphrase table formats', () => {
  it('tsv: pairs chain into sets; comments and blank lines skipped', () => {
    const t = parseParaphraseTable('# pairs\nbig\tlarge\n\nlarge\thuge\nsmall\tlittle\n', 'x.tsv');
    expect(t.info.format).toBe('tsv');
    expect(sorted(t.sets())).toEqual([['big', 'huge', 'large'], ['little', 'small']]);
    expect(t.info).toMatchObject({ lines: 5, entries: 3, phrases: 5, sets: 2 });
  });

  it('moses: target phrases sharing a source pivot are one set, also when the pivot lines are not adjacent', () => {
    const text = [
      'Bombenanschlag ||| bombing ||| 0.5 0.4 0.3 0.2',
      'Explosion ||| explosion ||| 0.7 0.6 0.5 0.4',
      'Bombenanschlag ||| blown up ||| 0.1 0.1 0.1 0.1',
      'Explosion ||| blast ||| 0.2 0.2 0.2 0.2',
      'Haus ||| house ||| 1 1 1 1',
      'Explosion ||| bombing ||| 0.1 0.1 0.1 0.1',
    ].join('\n');
    const t = parseParaphraseTable(text, 'phrase-table');
    expect(t.info.format).toBe('moses');
    expect(sorted(t.sets())).toEqual([['blast', 'blown up', 'bombing', 'explosion'], ['house']]);
  });

  it('ppdb: phrase and paraphrase join one set; rules with nonterminals are skipped and counted', () => {
    const text = [
      '[NN] ||| car ||| automobile ||| PPDB2.0Score=3.1 ||| 0-0 ||| Equivalence',
      '[NP] ||| the car ||| the vehicle ||| PPDB2.0Score=2.0 ||| 0-0 1-1',
      '[NP] ||| [DT,1] car ||| [DT,1] automobile ||| PPDB2.0Score=2.0 ||| 0-0 1-1',
    ].join('\n');
    const t = parseParaphraseTable(text, 'ppdb-s');
    expect(t.info).toMatchObject({ format: 'ppdb', entries: 2, skippedRules: 1 });
    expect(sorted(t.sets())).toEqual([['automobile', 'car'], ['the car', 'the vehicle']]);
  });

  it('an explicit format overrides detection', () => {
    // A tab inside a ||| line: detected as moses; read as tsv it is one pair of two fields.
    const t = parseParaphraseTable('a ||| b\tc ||| d\n', 'x', { format: 'tsv', tokenize: 'none' });
    expect(t.sets()).toEqual([['a ||| b', 'c ||| d']]);
  });

  it('minWords leaves out short phrases (a pair keeps its long side, alone)', () => {
    const t = parseParaphraseTable('up till now\tto date\nto date\tso far\nbig\tvery large\n', 'x', { minWords: 2 });
    expect(sorted(t.sets())).toEqual([['so far', 'to date', 'up till now'], ['very large']]);
    expect(t.maxLength).toBe(3);
  });

  it('phrases are tokenized (13a by default) and lowercased like the text', () => {
    const t = parseParaphraseTable('U.S. government\tWashington,\n', 'x', { lowercase: true });
    expect(t.sets()).toEqual([['u . s . government', 'washington ,']]);
    expect(t.setOfPhrase('Washington,')).toBe(0);
    expect(t.setOfPhrase('WASHINGTON ,')).toBe(0);
    expect(t.setOfPhrase('washington')).toBe(-1);
    const none = parseParaphraseTable('Washington,\tD.C.\n', 'x', { tokenize: 'none' });
    expect(none.sets()).toEqual([['Washington,', 'D.C.']]);
  });
});

describe('loading files', () => {
  const big = Array.from({ length: 300 }, (_, i) => `phrase ${i} é\tparaphrase ${i % 7} ü`).join('\n') + '\n';

  it('streams in small chunks (lines and UTF-8 sequences split between reads) to the same table and hash', () => {
    const path = file('big.tsv', big);
    const whole = loadParaphraseTable(path);
    for (const chunkSize of [1, 3, 17, 4096]) {
      const t = loadParaphraseTable(path, { chunkSize });
      expect(t.sets()).toEqual(whole.sets());
      expect(t.info.sha256).toBe(createHash('sha256').update(big).digest('hex'));
    }
    expect(whole.info).toMatchObject({ name: 'big.tsv', lines: 300, sets: 7, phrases: 307 });
  });

  it('a byte-order mark and CRLF line ends are accepted', () => {
    const t = loadParaphraseTable(file('bom.tsv', '\ufeffbig\tlarge\r\nsmall\tlittle\r\n'));
    expect(sorted(t.sets())).toEqual([['big', 'large'], ['little', 'small']]);
  });

  it('the shipped example table loads', () => {
    const t = loadParaphraseTable(new URL('../samples/paraphrase/en-para.tsv', import.meta.url).pathname);
    expect(t.info.format).toBe('tsv');
    expect(t.setOfPhrase('explosion')).toBe(t.setOfPhrase('blown up'));
    expect(t.setOfPhrase('said')).toBe(t.setOfPhrase('according to'));
    expect(t.info.sets).toBeGreaterThan(50);
  });
});

describe('bad tables', () => {
  const fixture = (name: string): string => new URL(`./fixtures/paraeval/${name}`, import.meta.url).pathname;

  it('a missing file', () => {
    const err = thrown(() => loadParaphraseTable(join(dir, 'nope.tsv')));
    expect(err.code).toBe('E_FILE_NOT_FOUND');
    expect(err.file).toBe(join(dir, 'nope.tsv'));
  });

  it('a TSV line with three fields names its file and line', () => {
    const err = thrown(() => loadParaphraseTable(fixture('bad-tsv.tsv')));
    expect(err).toMatchObject({ code: 'E_BAD_INPUT', file: fixture('bad-tsv.tsv'), line: 3 });
    expect(err.message).toMatch(/expected 2 tab-separated fields .*found 3/);
  });

  it('a PPDB line without its left-hand side', () => {
    const err = thrown(() => loadParaphraseTable(fixture('bad-ppdb.txt'), { format: 'ppdb' }));
    expect(err).toMatchObject({ code: 'E_BAD_INPUT', line: 2 });
    expect(err.message).toMatch(/bracketed PPDB left-hand side/);
  });

  it.each([
    ['undetectable first line', 'just words\n', 1, /cannot tell the paraphrase table format/],
    ['empty phrase', 'a\t\n', 1, /empty paraphrase \(field 2\)/],
    ['moses line without separator', 'x ||| y ||| 1\nz y 1\n', 2, /no " \|\|\| " separator/],
    ['moses empty target', 'x ||| y ||| 1\nx |||  ||| 1\n', 2, /empty target phrase/],
    ['ppdb with two fields', '[X] ||| a ||| b ||| f\n[X] ||| a\n', 2, /found 2 field/],
    ['a tsv line without a tab after a tsv line', 'a\tb\nc d\n', 2, /found 1/],
  ])('%s', (_, text, line, message) => {
    const path = file('bad.txt', text);
    const err = thrown(() => loadParaphraseTable(path));
    expect(err).toMatchObject({ code: 'E_BAD_INPUT', file: path, line });
    expect(err.message).toMatch(message);
  });

  it('invalid UTF-8 names the line', () => {
    const path = file('latin1.tsv', Uint8Array.from([...Buffer.from('a\tb\nc\t'), 0xe9, 0x0a]));
    expect(thrown(() => loadParaphraseTable(path))).toMatchObject({ code: 'E_INVALID_UTF8', line: 2 });
    expect(thrown(() => loadParaphraseTable(path, { chunkSize: 2 }))).toMatchObject({ code: 'E_INVALID_UTF8', line: 2 });
  });

  it('a table without pairs, and bad options', () => {
    expect(thrown(() => loadParaphraseTable(file('empty.tsv', '# nothing\n\n'), { format: 'tsv' })).code).toBe('E_EMPTY_INPUT');
    expect(thrown(() => parseParaphraseTable('a\tb', 'x', { minWords: 0 })).code).toBe('E_BAD_OPTION');
    expect(thrown(() => parseParaphraseTable('a\tb', 'x', { format: 'csv' as 'tsv' })).code).toBe('E_BAD_OPTION');
    expect(thrown(() => parseParaphraseTable('a\tb', 'x', { tokenize: 'nope' as 'none' })).code).toBe('E_UNKNOWN_TOKENIZER');
  });
});
