/**
 * A plain PRO sampler written straight from Moses' `pro` main loop (mert/pro.cpp), for checking the library's:
 * a list of (file, candidate) hypotheses per sentence, sentence BLEU recomputed at every draw with V8's own
 * `Math.log`/`Math.exp` rounded to float, the kept pairs chosen by sorting all differences, and the MegaM lines
 * written per feature with `toPrecision`-based `%g` of its own. Slow and obvious on purpose.
 */
import { GlibcRandom } from '../../src/tuning/mert/glibc-random.js';

const f = Math.fround;

function sentenceBleu(stats: readonly number[], smoothBP: boolean): number {
  let logbleu = 0;
  for (let j = 0; j < 4; j++) logbleu = f(logbleu + f(f(Math.log(f(stats[2 * j] + 1))) - f(Math.log(f(stats[2 * j + 1] + 1)))));
  logbleu = f(logbleu / 4);
  const reflength = f(stats[8] + (smoothBP ? 1 : 0));
  const brevity = f(1 - f(reflength / stats[1]));
  if (brevity < 0) logbleu = f(logbleu + brevity);
  return f(Math.exp(logbleu));
}

/** `%g` (six significant digits) for the values the fixtures hold (no exact decimal ties). */
function g(x: number): string {
  if (x === 0) return '0';
  const exp = Math.floor(Math.log10(Math.abs(Number(x.toPrecision(6)))));
  if (exp < -4 || exp >= 6) {
    const [m, e] = x.toExponential(5).split('e');
    const mant = m.includes('.') ? m.replace(/0+$/, '').replace(/\.$/, '') : m;
    const n = Number(e);
    return `${mant}e${n < 0 ? '-' : '+'}${String(Math.abs(n)).padStart(2, '0')}`;
  }
  const t = x.toFixed(Math.max(0, 5 - exp));
  return t.includes('.') ? t.replace(/0+$/, '').replace(/\.$/, '') : t;
}

/** One tuning run's files as plain arrays: per sentence, its candidates' statistics and features. */
export interface ReferenceRun {
  readonly stats: number[][][];
  readonly features: number[][][];
}

/** Moses `pro` on `runs` (one per `--scfile`/`--ffile` pair) with `seed`: the text it prints. */
export function referencePro(runs: readonly ReferenceRun[], seed: number, smoothBP = false, gamma = 5000, xi = 50): string {
  const rng = new GlibcRandom(seed);
  let out = '';
  const line = (label: string, a: number[], b: number[]): string => {
    let text = label;
    for (let j = 0; j < a.length; j++) {
      const d = f(f(a[j]) - f(b[j]));
      if (Math.abs(d) > 0.00001) text += ` F${j} ${g(d)}`;
    }
    return `${text}\n`;
  };
  for (let s = 0; s < runs[0].stats.length; s++) {
    const hyps: [number, number][] = [];
    runs.forEach((run, file) => run.stats[s].forEach((_, c) => hyps.push([file, c])));
    const pairs: { a: [number, number]; b: [number, number]; diff: number }[] = [];
    for (let i = 0; i < gamma; i++) {
      const t1 = hyps[rng.next() % hyps.length];
      const bleu1 = sentenceBleu(runs[t1[0]].stats[s][t1[1]], smoothBP);
      const t2 = hyps[rng.next() % hyps.length];
      const bleu2 = sentenceBleu(runs[t2[0]].stats[s][t2[1]], smoothBP);
      const diff = f(bleu1 - bleu2);
      if (Math.abs(diff) < f(0.05)) continue;
      pairs.push(diff > 0 ? { a: t1, b: t2, diff } : { a: t2, b: t1, diff: -diff });
    }
    let threshold = -1;
    if (pairs.length > xi) {
      const byDiff = pairs.map((p) => p.diff).sort((x, y) => y - x);
      threshold = f(0.99999 - f(1 - byDiff[xi - 1]));
    }
    const kept = pairs.filter((p) => p.diff >= threshold).slice(0, xi);
    for (const p of kept) {
      const fa = runs[p.a[0]].features[s][p.a[1]];
      const fb = runs[p.b[0]].features[s][p.b[1]];
      out += line('1', fa, fb) + line('0', fb, fa);
    }
  }
  return out;
}
