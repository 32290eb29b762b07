import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  pyFixed,
  pyFloatRepr,
  pyJsonDumps,
  pyJsonString,
  pyParseFloat,
  pyParseInt,
  type PyJson,
} from '../src/cli/py-format.js';
import { renderTable, type TableColumn, type TableStyle } from '../src/cli/table.js';
import { formatResultsTable, formatScore, formatSingleResults } from '../src/cli/report.js';

// Expected strings come from Python 3.11.2 and python-tabulate 0.8.9 (test/fixtures/cli/SOURCE.md); exact equality.
const fixtures = new URL('./fixtures/cli/', import.meta.url);
const pyFormat = JSON.parse(readFileSync(new URL('python-format.json', fixtures), 'utf8')) as {
  fixed: [string, number, string][];
  repr: [string, string][];
  dumps: { value: PyJson; indent: number | null; ensure_ascii: boolean; out: string }[];
};
const tabulateCases = JSON.parse(readFileSync(new URL('tabulate-cases.json', fixtures), 'utf8')) as {
  cols: TableColumn[];
  style: TableStyle;
  w: number;
  out: string;
}[];

/** Python `float.fromhex` of `float.hex()` output (exact). */
function fromHex(hex: string): number {
  const m = /^(-?)0x([01])\.([0-9a-f]+)p([+-]\d+)$/.exec(hex);
  if (!m) throw new Error(`bad hex float ${hex}`);
  const mantissa = Number(BigInt(`0x${m[2]}${m[3]}`));
  const value = mantissa * 2 ** (Number(m[4]) - 4 * m[3].length);
  return m[1] === '-' ? -value : value;
}

describe('pyFixed equals Python f"{x:.{w}f}"', () => {
  it(`on ${pyFormat.fixed.length} (value, width) pairs, ties to even included`, () => {
    const bad = pyFormat.fixed.filter(([hex, w, out]) => pyFixed(fromHex(hex), w) !== out);
    expect(bad).toEqual([]);
  });

  it('rounds exact binary ties to even where toFixed rounds up', () => {
    expect(pyFixed(0.125, 2)).toBe('0.12');
    expect(pyFixed(2.5, 0)).toBe('2');
    expect(pyFixed(6.25, 1)).toBe('6.2');
    expect(pyFixed(-0.04, 1)).toBe('-0.0');
  });
});

describe('pyFloatRepr equals Python repr(float)', () => {
  it(`on ${pyFormat.repr.length} doubles`, () => {
    const bad = pyFormat.repr.filter(([hex, out]) => pyFloatRepr(fromHex(hex)) !== out);
    expect(bad).toEqual([]);
  });
});

describe('pyJsonDumps equals Python json.dumps', () => {
  it(`on ${pyFormat.dumps.length} values (indent none/1/4, ensure_ascii on/off)`, () => {
    for (const c of pyFormat.dumps) {
      const got = pyJsonDumps(c.value, { indent: c.indent ?? undefined, ensureAscii: c.ensure_ascii });
      expect(got, JSON.stringify(c.value)).toBe(c.out);
    }
  });

  it('escapes astral characters as surrogate pairs with lowercase hex when ASCII-only', () => {
    expect(pyJsonString('😀', true)).toBe('"\\ud83d\\ude00"');
    expect(pyJsonString('😀', false)).toBe('"😀"');
  });
});

describe('Python number parsing (as tabulate applies it)', () => {
  it.each([
    ['12', 12],
    [' 7 ', 7],
    ['1_000', 1000],
    ['-3', -3],
    ['+4', 4],
  ])('int(%j) = %d', (s, v) => expect(pyParseInt(s)).toBe(v));

  it.each(['1.5', '', '1__0', '_1', 'x', '0x10'])('int(%j) raises', (s) => expect(pyParseInt(s)).toBeUndefined());

  it.each([
    ['1.5', 1.5],
    ['.5', 0.5],
    ['5.', 5],
    ['1e5', 1e5],
    ['1_0.5', 10.5],
    ['-inf', -Infinity],
    ['Infinity', Infinity],
  ])('float(%j) = %d', (s, v) => expect(pyParseFloat(s)).toBe(v));

  it.each(['', '.', 'e5', '0x10', '1e', 'infinit'])('float(%j) raises', (s) => expect(pyParseFloat(s)).toBeUndefined());
});

describe('renderTable equals python-tabulate as sacrebleu calls it', () => {
  it.each(tabulateCases.map((c, i) => [i, c] as const))('case %i', (_, c) => {
    expect(renderTable(c.cols, c.style, c.w)).toBe(c.out);
  });
});

describe('sacrebleu Score.format', () => {
  const bleu = { name: 'BLEU', score: 22.674635039470754, verboseScore: '56.2/28.7 (BP = 0.985)' };
  const sig = 'nrefs:1|case:mixed|version:0.1.0';

  it('text: NAME|SIGNATURE = score verbose', () => {
    expect(formatScore(bleu, { width: 2, scoreOnly: false, signature: sig, json: false })).toBe(
      'BLEU|nrefs:1|case:mixed|version:0.1.0 = 22.67 56.2/28.7 (BP = 0.985)',
    );
    expect(formatScore(bleu, { width: 2, scoreOnly: false, signature: '', json: false })).toBe(
      'BLEU = 22.67 56.2/28.7 (BP = 0.985)',
    );
  });

  it('score only, in text and JSON alike', () => {
    expect(formatScore(bleu, { width: 3, scoreOnly: true, signature: sig, json: true })).toBe('22.675');
  });

  it('JSON: indent 1, score rounded then written as a float, signature fields after', () => {
    expect(formatScore({ ...bleu, score: 100.00000000000004 }, { width: 0, scoreOnly: false, signature: sig, json: true }))
      .toBe(
        '{\n "name": "BLEU",\n "score": 100.0,\n "signature": "nrefs:1|case:mixed|version:0.1.0",\n' +
          ' "verbose_score": "56.2/28.7 (BP = 0.985)",\n "nrefs": "1",\n "case": "mixed",\n "version": "0.1.0"\n}',
      );
  });

  it('JSON without a verbose part has no verbose_score key (chrF)', () => {
    const out = formatScore({ name: 'chrF2', score: 51.95, verboseScore: '' }, { width: 1, scoreOnly: false, signature: sig, json: true });
    expect(out).not.toContain('verbose_score');
  });
});

describe('sacrebleu print_single_results', () => {
  it('aligns text lines on their "=" (right-aligned left part)', () => {
    expect(formatSingleResults(['BLEU|a:1 = 22.7 x', 'chrF2|a:1 = 52.0'], 'text')).toBe(
      ' BLEU|a:1 = 22.7 x\nchrF2|a:1 = 52.0',
    );
  });

  it('prints score-only lines as they are', () => {
    expect(formatSingleResults(['22.7', '52.0'], 'text')).toBe('22.7\n52.0');
  });

  it('joins several JSON objects into a list', () => {
    expect(formatSingleResults(['{\n "a": 1.0\n}', '{\n "b": 2.0\n}'], 'json')).toBe(
      '[\n{\n "a": 1.0\n},\n{\n "b": 2.0\n}\n]',
    );
    expect(formatSingleResults(['{}'], 'json')).toBe('{}');
  });
});

describe('sacrebleu print_results_table', () => {
  const systems = ['a.de', 'b/Ärger.de'];
  const columns = [
    { name: 'BLEU', signature: 'nrefs:1|version:0.1.0', scores: ['22.7', '100.0'] },
    { name: 'chrF2', signature: 'nrefs:1|nc:6|version:0.1.0', scores: ['52.0', '9.5'] },
  ];

  it('JSON: a list of {system, NAME: score} with indent 4, non-ASCII escaped', () => {
    expect(formatResultsTable(systems, columns, { format: 'json', width: 1, color: false })).toBe(
      '[\n    {\n        "system": "a.de",\n        "BLEU": "22.7",\n        "chrF2": "52.0"\n    },\n' +
        '    {\n        "system": "b/\\u00c4rger.de",\n        "BLEU": "100.0",\n        "chrF2": "9.5"\n    }\n]',
    );
  });

  it('text: the table, a blank line, then the signatures', () => {
    const text = formatResultsTable(systems, columns, { format: 'text', width: 1, color: false });
    expect(text.split('\n').slice(-6)).toEqual([
      '',
      '-----------------',
      'Metric signatures',
      '-----------------',
      ' - BLEU       nrefs:1|version:0.1.0',
      ' - chrF2      nrefs:1|nc:6|version:0.1.0',
    ]);
    expect(text.startsWith('╒')).toBe(true);
  });

  it('colours headers without changing the layout', () => {
    const plain = formatResultsTable(systems, columns, { format: 'text', width: 1, color: false });
    const colored = formatResultsTable(systems, columns, { format: 'text', width: 1, color: true });
    expect(colored).toContain('\x1b[36mBLEU\x1b[0m');
    expect(colored.replace(/\x1b\[[0-9;]*m/g, '')).toBe(plain);
  });
});
