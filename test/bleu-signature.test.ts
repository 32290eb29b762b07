import { describe, expect, it } from 'vitest';
import { formatNRefs, formatSignature, parseSignature } from '../src/metrics/signature.js';
import { VERSION } from '../src/version.js';

// Expected strings are sacrebleu 2.6.0's (golden/sacrebleu/*.json `signature` / `signature_short`), with the
// version field given explicitly.
const bleuFields = [
  { key: 'case', abbr: 'c', value: 'mixed' },
  { key: 'eff', abbr: 'e', value: false },
  { key: 'tok', abbr: 'tok', value: '13a' },
  { key: 'smooth', abbr: 's', value: 'exp' },
];

describe('formatSignature', () => {
  it('lays out nrefs first, metric fields in order, version last (long and short form)', () => {
    expect(formatSignature({ nRefs: 1, version: '2.6.0' }, bleuFields)).toBe(
      'nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0',
    );
    expect(formatSignature({ nRefs: 1, version: '2.6.0' }, bleuFields, true)).toBe(
      '#:1|c:mixed|e:no|tok:13a|s:exp|v:2.6.0',
    );
  });

  it("prints Palette's own version by default", () => {
    expect(formatSignature({ nRefs: 3 }, [])).toBe(`nrefs:3|version:${VERSION}`);
  });

  it('prints var for a varying reference count', () => {
    expect(formatNRefs(-1)).toBe('var');
    expect(formatNRefs('var')).toBe('var');
    expect(formatSignature({ nRefs: -1, version: 'x' }, [])).toBe('nrefs:var|version:x');
  });

  it('drops null/undefined fields and places the resampling fields after nrefs', () => {
    const sig = formatSignature({ nRefs: 1, bootstrap: 1000, seed: 12345, version: '2.6.0' }, [
      ...bleuFields,
      { key: 'extra', abbr: 'x', value: null },
    ]);
    expect(sig).toBe('nrefs:1|bs:1000|seed:12345|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0');
    expect(formatSignature({ nRefs: 1, bootstrap: 1000, seed: 12345, version: '2.6.0' }, bleuFields, true)).toBe(
      '#:1|bs:1000|rs:12345|c:mixed|e:no|tok:13a|s:exp|v:2.6.0',
    );
  });

  it('parses a long-form signature into key/value pairs', () => {
    expect(parseSignature('nrefs:1|case:lc|version:2.6.0')).toEqual([
      ['nrefs', '1'],
      ['case', 'lc'],
      ['version', '2.6.0'],
    ]);
    expect(parseSignature('')).toEqual([]);
  });
});
