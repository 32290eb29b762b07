/**
 * Plain reference of ROUGE's segment rows from pair statistics (the row kernel, assembly/rouge-rows.ts): each
 * flavor's multi-reference rule written out with closures and the `%7.5f` string, for the property tests.
 *
 * Pair rows are 4 numbers (hit, hypothesis count, reference count, select); a row is 7 (hit, hyp, ref, P, R, F, 1).
 */
import { perlFixed5 } from '../../src/metrics/rouge155/perl-format.js';
import type { RougeRowSettings } from '../../src/wasm/rouge-rows.js';
import { wlcsWeightInverse } from '../../src/wasm/rouge.js';

type FMeasure = (p: number, r: number) => number;

/** ROUGE-1.5.5's `%7.5f` as a number: the text, read back. */
export function perlRound5Reference(x: number): number {
  return Number(perlFixed5(x));
}

/** The F-measure of a form: α, β or F1, each in its implementation's operation order. */
export function fMeasureReference(form: RougeRowSettings['form'], param: number): FMeasure {
  if (form === 'alpha') {
    return (p, r) => {
      const d = (1 - param) * p + param * r;
      return d > 0 ? (p * r) / d : 0;
    };
  }
  if (form === 'beta') {
    const b2 = param * param;
    return (p, r) => {
      const d = r + b2 * p;
      return d > 0 ? ((1 + b2) * r * p) / d : 0;
    };
  }
  return (p, r) => (p + r > 0 ? (2 * p * r) / (p + r) : 0);
}

interface Pair {
  hit: number;
  hyp: number;
  ref: number;
  select: number;
}

/** One row as an array, from the pairs it combines (a jackknife subset already left out). */
function combine(pairs: readonly Pair[], s: RougeRowSettings): number[] {
  const inverse = s.weight > 0 ? (x: number): number => wlcsWeightInverse(x, s.weight) : (x: number): number => x;
  const ratio = (hit: number, count: number): number => (count > 0 ? inverse(hit / count) : 0);
  const fm = fMeasureReference(s.form, s.param);
  const counts = (hit: number, hyp: number, ref: number): number[] => {
    const r = ratio(hit, ref);
    const p = ratio(hit, hyp);
    return [hit, hyp, ref, p, r, fm(p, r), 1];
  };
  const bestF = (): number[] => {
    let row = [0, 0, 0, 0, 0, fm(0, 0), 1];
    pairs.forEach((q, k) => {
      const r = ratio(q.hit, q.ref);
      const p = ratio(q.hit, q.hyp);
      const f = fm(p, r);
      if (k === 0 || f > row[5]) row = [q.hit, q.hyp, q.ref, p, r, f, 1];
    });
    return row;
  };
  switch (s.rule) {
    case 'rouge155-A':
    case 'rouge155-B': {
      let chosen: Pair[] = pairs.slice();
      if (s.rule === 'rouge155-B') {
        let best: Pair | undefined;
        for (const q of pairs) if (best === undefined || q.select > best.select) best = q;
        // A first select of -1 or less is never taken: the Perl starts from -1.
        chosen = best !== undefined && best.select > -1 ? [best] : [];
      }
      const hit = chosen.reduce((a, q) => a + q.hit, 0);
      const peer = chosen.reduce((a, q) => a + q.hyp, 0);
      const model = chosen.reduce((a, q) => a + q.ref, 0);
      const recall = perlRound5Reference(model !== 0 ? inverse(hit / model) : 0);
      const precision = perlRound5Reference(peer !== 0 ? inverse(hit / peer) : 0);
      const alpha = s.form === 'alpha' ? s.param : 0.5;
      const d = (1 - alpha) * precision + alpha * recall;
      return [hit, peer, model, precision, recall, perlRound5Reference(d > 0 ? (precision * recall) / d : 0), 1];
    }
    case 'best-f':
      return bestF();
    case 'max': {
      const row = bestF();
      const p = Math.max(row[3], ...pairs.map((q) => ratio(q.hit, q.hyp)));
      const r = Math.max(row[4], ...pairs.map((q) => ratio(q.hit, q.ref)));
      return [row[0], row[1], row[2], p, r, fm(p, r), 1];
    }
    case 'pool':
      return counts(
        pairs.reduce((a, q) => a + q.hit, 0),
        pairs.reduce((a, q) => a + q.hyp, 0),
        pairs.reduce((a, q) => a + q.ref, 0),
      );
    case 'best-recall': {
      let best: Pair | undefined;
      for (const q of pairs) if (best === undefined || q.select > best.select) best = q;
      return best === undefined ? counts(0, 0, 0) : counts(best.hit, best.hyp, best.ref);
    }
  }
}

/** The row of one hypothesis from its pairs (4 numbers each), jackknifed when the settings say so. */
export function rougeRowReference(pairRows: readonly number[], s: RougeRowSettings): number[] {
  const pairs: Pair[] = [];
  for (let at = 0; at < pairRows.length; at += 4) {
    pairs.push({ hit: pairRows[at], hyp: pairRows[at + 1], ref: pairRows[at + 2], select: pairRows[at + 3] });
  }
  const row = combine(pairs, s);
  if (s.jackknife && pairs.length >= 2) {
    const subsets = pairs.map((_, k) => combine(pairs.filter((_, j) => j !== k), s));
    for (const c of [3, 4, 5]) row[c] = subsets.reduce((a, r) => a + r[c], 0) / pairs.length;
  }
  return row;
}
