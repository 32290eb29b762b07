/**
 * Inline SVG scatter plots (metric vs human scores) for the HTML report, drawn on the server so that the page shows
 * them without script and tests can check them without a browser. Small sets are drawn point by point with a
 * tooltip (`<title>`); sets larger than {@link ScatterOptions.maxPoints} are binned on a grid whose cells are shaded
 * by count, so that 16 systems × 3000 segments stay a few kilobytes and the density stays readable.
 * Coordinates are rounded to 0.1 px, so the same data always gives the same bytes.
 */
import { escapeHtml } from './html-escape.js';

/** What to draw. */
export interface ScatterOptions {
  /** Caption of the x axis (the metric). */
  readonly xLabel: string;
  /** Caption of the y axis (the human score). */
  readonly yLabel: string;
  /** Tooltip label per point (system names), when drawn point by point. */
  readonly labels?: readonly string[];
  /** Print the labels beside the points (system level). @default false */
  readonly showLabels?: boolean;
  /** Above this many points, bin instead of drawing points. @default 1500 */
  readonly maxPoints?: number;
  /** Grid cells per axis when binning. @default 40 */
  readonly bins?: number;
  /** Width of the SVG in px. @default 360 */
  readonly width?: number;
  /** Height of the SVG in px. @default 280 */
  readonly height?: number;
}

const MARGIN = { left: 52, right: 14, top: 20, bottom: 42 };

/** A number as SVG coordinates print it: at most one decimal, no `-0`. */
function px(v: number): string {
  const r = Math.round(v * 10) / 10;
  return String(r === 0 ? 0 : r);
}

/** Up to about `count` round tick values covering [lo, hi]. */
export function niceTicks(lo: number, hi: number, count = 5): number[] {
  if (!(hi > lo)) return [lo];
  const raw = (hi - lo) / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((f) => f * mag).find((s) => s >= raw) ?? 10 * mag;
  const ticks: number[] = [];
  for (let t = Math.ceil(lo / step) * step; t <= hi + step * 1e-9; t += step) ticks.push(Number(t.toPrecision(12)));
  return ticks;
}

/** [min, max] of the finite values, padded by 5% (or ±0.5 when all are equal); [0, 1] when none. */
function extent(values: readonly number[]): [number, number] {
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of values) {
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  if (lo === Infinity) return [0, 1];
  if (lo === hi) return [lo - 0.5, hi + 0.5];
  const pad = (hi - lo) * 0.05;
  return [lo - pad, hi + pad];
}

/** A tick label: up to 4 significant digits, no exponent for the ranges scores have. */
function tickLabel(v: number): string {
  return String(Number(v.toPrecision(4)));
}

/**
 * An `<svg>` element plotting `ys` against `xs`. Pairs where either value is null or not finite are left out.
 * @throws RangeError when `xs` and `ys` differ in length.
 */
export function scatterSvg(
  xs: readonly (number | null)[],
  ys: readonly (number | null)[],
  options: ScatterOptions,
): string {
  if (xs.length !== ys.length) throw new RangeError(`xs and ys must have the same length (got ${xs.length} and ${ys.length})`);
  const width = options.width ?? 360;
  const height = options.height ?? 280;
  const maxPoints = options.maxPoints ?? 1500;
  const bins = options.bins ?? 40;
  const index: number[] = [];
  for (let i = 0; i < xs.length; i++) {
    const x = xs[i];
    const y = ys[i];
    if (x !== null && y !== null && Number.isFinite(x) && Number.isFinite(y)) index.push(i);
  }
  const px0 = MARGIN.left;
  const px1 = width - MARGIN.right;
  const py0 = height - MARGIN.bottom;
  const py1 = MARGIN.top;
  const [xlo, xhi] = extent(index.map((i) => xs[i]!));
  const [ylo, yhi] = extent(index.map((i) => ys[i]!));
  const sx = (v: number): number => px0 + ((v - xlo) / (xhi - xlo)) * (px1 - px0);
  const sy = (v: number): number => py0 - ((v - ylo) / (yhi - ylo)) * (py0 - py1);

  const parts: string[] = [];
  parts.push(
    `<svg class="scatter" xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" ` +
      `viewBox="0 0 ${width} ${height}" role="img" aria-label="${escapeHtml(`${options.yLabel} vs ${options.xLabel}`)}">`,
  );
  parts.push(`<rect class="plot-bg" x="${px0}" y="${py1}" width="${px1 - px0}" height="${py0 - py1}"/>`);
  for (const t of niceTicks(xlo, xhi)) {
    const x = px(sx(t));
    parts.push(`<line class="grid" x1="${x}" y1="${py1}" x2="${x}" y2="${py0}"/>`);
    parts.push(`<text class="tick" x="${x}" y="${py0 + 14}" text-anchor="middle">${tickLabel(t)}</text>`);
  }
  for (const t of niceTicks(ylo, yhi)) {
    const y = px(sy(t));
    parts.push(`<line class="grid" x1="${px0}" y1="${y}" x2="${px1}" y2="${y}"/>`);
    parts.push(`<text class="tick" x="${px0 - 5}" y="${y}" dy="0.32em" text-anchor="end">${tickLabel(t)}</text>`);
  }
  parts.push(
    `<text class="axis-label" x="${px((px0 + px1) / 2)}" y="${height - 8}" text-anchor="middle">${escapeHtml(options.xLabel)}</text>`,
  );
  parts.push(
    `<text class="axis-label" transform="translate(13 ${px((py0 + py1) / 2)}) rotate(-90)" text-anchor="middle">` +
      `${escapeHtml(options.yLabel)}</text>`,
  );

  const fit = leastSquares(index.map((i) => xs[i]!), index.map((i) => ys[i]!));
  if (fit !== null) {
    // The fitted line, cut to the part inside the plot (no clip path: ids would have to be unique on the page).
    let a = xlo;
    let b = xhi;
    if (fit.slope !== 0) {
      const atLow = (ylo - fit.intercept) / fit.slope;
      const atHigh = (yhi - fit.intercept) / fit.slope;
      a = Math.max(a, Math.min(atLow, atHigh));
      b = Math.min(b, Math.max(atLow, atHigh));
    }
    if (a < b) {
      parts.push(
        `<line class="fit" x1="${px(sx(a))}" y1="${px(sy(fit.intercept + fit.slope * a))}" ` +
          `x2="${px(sx(b))}" y2="${px(sy(fit.intercept + fit.slope * b))}"/>`,
      );
    }
  }

  if (index.length <= maxPoints) {
    parts.push('<g class="points">');
    for (const i of index) {
      const x = xs[i]!;
      const y = ys[i]!;
      const label = options.labels?.[i];
      const tip = `${label === undefined ? '' : `${label}: `}${tickLabel(x)}, ${tickLabel(y)}`;
      parts.push(`<circle cx="${px(sx(x))}" cy="${px(sy(y))}" r="${index.length > 100 ? 2 : 4}"><title>${escapeHtml(tip)}</title></circle>`);
      if (options.showLabels && label !== undefined) {
        // Labels of points on the right half go to their left, so they stay inside the picture.
        const right = sx(x) > (px0 + px1) / 2;
        parts.push(
          `<text class="point-label" x="${px(sx(x) + (right ? -6 : 6))}" y="${px(sy(y) - 5)}"${right ? ' text-anchor="end"' : ''}>` +
            `${escapeHtml(label)}</text>`,
        );
      }
    }
    parts.push('</g>');
  } else {
    parts.push(binned(index, xs, ys, { bins, px0, px1, py0, py1, sx, sy }));
  }
  // Above the plot, where no point can hide it.
  parts.push(`<text class="n" x="${px1}" y="${py1 - 6}" text-anchor="end">n = ${index.length}</text>`);
  parts.push('</svg>');
  return parts.join('');
}

/** Ordinary least squares y = intercept + slope·x; null for fewer than two distinct x. */
function leastSquares(xs: readonly number[], ys: readonly number[]): { slope: number; intercept: number } | null {
  const n = xs.length;
  if (n < 2) return null;
  let mx = 0;
  let my = 0;
  for (let i = 0; i < n; i++) {
    mx += xs[i];
    my += ys[i];
  }
  mx /= n;
  my /= n;
  let sxy = 0;
  let sxx = 0;
  for (let i = 0; i < n; i++) {
    sxy += (xs[i] - mx) * (ys[i] - my);
    sxx += (xs[i] - mx) ** 2;
  }
  if (sxx === 0) return null;
  const slope = sxy / sxx;
  return { slope, intercept: my - slope * mx };
}

/** Grid cells shaded by how many points fall in them (opacity grows with the square root of the count). */
function binned(
  index: readonly number[],
  xs: readonly (number | null)[],
  ys: readonly (number | null)[],
  g: {
    bins: number;
    px0: number;
    px1: number;
    py0: number;
    py1: number;
    sx: (v: number) => number;
    sy: (v: number) => number;
  },
): string {
  const counts = new Uint32Array(g.bins * g.bins);
  const cw = (g.px1 - g.px0) / g.bins;
  const ch = (g.py0 - g.py1) / g.bins;
  for (const i of index) {
    const cx = Math.min(g.bins - 1, Math.max(0, Math.floor((g.sx(xs[i]!) - g.px0) / cw)));
    const cy = Math.min(g.bins - 1, Math.max(0, Math.floor((g.py0 - g.sy(ys[i]!)) / ch)));
    counts[cy * g.bins + cx]++;
  }
  let max = 0;
  for (const c of counts) if (c > max) max = c;
  const parts = ['<g class="bins">'];
  for (let cy = 0; cy < g.bins; cy++) {
    for (let cx = 0; cx < g.bins; cx++) {
      const c = counts[cy * g.bins + cx];
      if (c === 0) continue;
      const opacity = Math.round((0.15 + 0.85 * Math.sqrt(c / max)) * 100) / 100;
      parts.push(
        `<rect x="${px(g.px0 + cx * cw)}" y="${px(g.py0 - (cy + 1) * ch)}" width="${px(cw)}" height="${px(ch)}" ` +
          `fill-opacity="${opacity}"><title>${c}</title></rect>`,
      );
    }
  }
  parts.push('</g>');
  return parts.join('');
}
