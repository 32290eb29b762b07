/**
 * Inline SVG scatter plots: one circle per complete pair below the point limit, shaded grid cells above it (every
 * point counted once), missing and non-finite values left out, labels escaped, and round tick values.
 */
import { describe, expect, it } from 'vitest';
import { niceTicks, scatterSvg } from '../src/report/svg-scatter.js';

function countsOfBins(svg: string): number[] {
  return [...svg.matchAll(/<rect x="[^"]*" y="[^"]*" width="[^"]*" height="[^"]*" fill-opacity="[^"]*"><title>(\d+)<\/title>/g)].map(
    (m) => Number(m[1]),
  );
}

describe('scatterSvg', () => {
  it('draws one point per pair where both values are finite', () => {
    const svg = scatterSvg([1, 2, null, 4, Number.NaN, 6], [1, 3, 2, null, 5, 7], { xLabel: 'BLEU', yLabel: 'DA' });
    expect(svg.match(/<circle /g)).toHaveLength(3);
    expect(svg).toContain('n = 3');
    expect(svg.startsWith('<svg class="scatter"')).toBe(true);
    expect(svg.endsWith('</svg>')).toBe(true);
  });

  it('escapes labels, axis captions and tooltips', () => {
    const evil = '<script>x</script>&"';
    const svg = scatterSvg([1, 2], [2, 1], { xLabel: evil, yLabel: evil, labels: [evil, 'b'], showLabels: true });
    expect(svg).not.toContain('<script>');
    expect(svg).toContain('&lt;script&gt;x&lt;/script&gt;&amp;&quot;');
  });

  it('bins above maxPoints, and the cells count every point once', () => {
    const n = 5000;
    const xs = Array.from({ length: n }, (_, i) => (i * 7919) % 1000);
    const ys = Array.from({ length: n }, (_, i) => (i * 104729) % 997);
    const svg = scatterSvg(xs, ys, { xLabel: 'x', yLabel: 'y', maxPoints: 1000, bins: 20 });
    expect(svg).not.toContain('<circle');
    const counts = countsOfBins(svg);
    expect(counts.length).toBeGreaterThan(0);
    expect(counts.length).toBeLessThanOrEqual(400);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(n);
  });

  it('draws the least-squares line inside the plot, and none for a constant x', () => {
    expect(scatterSvg([1, 2, 3], [2, 4, 6], { xLabel: 'x', yLabel: 'y' })).toContain('<line class="fit"');
    expect(scatterSvg([1, 1, 1], [2, 4, 6], { xLabel: 'x', yLabel: 'y' })).not.toContain('<line class="fit"');
  });

  it('gives the same bytes for the same input and refuses lengths that differ', () => {
    const a = scatterSvg([0.1, 0.25, 0.3], [3, 1, 2], { xLabel: 'x', yLabel: 'y' });
    expect(scatterSvg([0.1, 0.25, 0.3], [3, 1, 2], { xLabel: 'x', yLabel: 'y' })).toBe(a);
    expect(() => scatterSvg([1], [1, 2], { xLabel: 'x', yLabel: 'y' })).toThrow(RangeError);
  });

  it('draws an empty plot when nothing is complete', () => {
    const svg = scatterSvg([null], [1], { xLabel: 'x', yLabel: 'y' });
    expect(svg).toContain('n = 0');
    expect(svg).not.toContain('<circle');
  });
});

describe('niceTicks', () => {
  it.each([
    [0, 1, [0, 0.2, 0.4, 0.6, 0.8, 1]],
    [12.3, 31.7, [15, 20, 25, 30]],
    [-0.5, 0.5, [-0.4, -0.2, 0, 0.2, 0.4]],
    [3, 3, [3]],
  ])('ticks of [%s, %s]', (lo, hi, expected) => {
    expect(niceTicks(lo, hi)).toEqual(expected);
  });
});
