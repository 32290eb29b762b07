/**
 * The shared fixed-point formatter (src/util/py-fixed.ts). Expected strings: Python 3.11 `f'{x:.{w}f}'` and
 * perl 5.36 `sprintf('%.Nf', x)` (glibc printf), which agree on every finite double; written out here by hand from
 * those tools' output. Python's output on 496 generated doubles is compared in test/cli-format.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { pyFixed } from '../src/util/py-fixed.js';

describe('pyFixed', () => {
  it('rounds exact binary ties to even (Python, C printf), other values as toFixed', () => {
    expect(pyFixed(6.25, 1)).toBe('6.2');
    expect(pyFixed(6.35, 1)).toBe((6.35).toFixed(1)); // 6.35 is not an exact tie in binary
    expect(pyFixed(0.125, 2)).toBe('0.12');
    expect(pyFixed(0.375, 2)).toBe('0.38');
    expect(pyFixed(2.5, 0)).toBe('2');
    expect(pyFixed(3.5, 0)).toBe('4');
    expect(pyFixed(-0.0, 1)).toBe('-0.0');
    expect(pyFixed(-6.25, 1)).toBe('-6.2');
    expect(pyFixed(100.00000000000004, 2)).toBe('100.00');
    expect(pyFixed(1, 2)).toBe('1.00');
  });

  it('prints what perl/C printf prints at 4 decimals (mteval NIST figures), where toFixed differs on ties', () => {
    const cases: [number, string][] = [
      [0.03125, '0.0312'], // toFixed: 0.0313
      [1.03125, '1.0312'], // toFixed: 1.0313
      [0.15625, '0.1562'], // toFixed: 0.1563
      [0.00005, '0.0001'], // not a tie in binary (slightly above 5e-5)
      [0.0001220703125, '0.0001'],
      [12345.00005, '12345.0001'],
      [-0.0, '-0.0000'],
      [1e22, '10000000000000000000000.0000'],
    ];
    for (const [x, want] of cases) expect(pyFixed(x, 4), String(x)).toBe(want);
    expect((0.03125).toFixed(4)).toBe('0.0313');
  });

  it('spells non-finite values as Python does', () => {
    expect([pyFixed(NaN, 2), pyFixed(Infinity, 0), pyFixed(-Infinity, 4)]).toEqual(['nan', 'inf', '-inf']);
  });
});
