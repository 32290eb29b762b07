/**
 * CER, GLEU, RIBES and METEOR speed: hypotheses per second on WMT21 en-de (the first 5 systems of
 * ../shared/data/wmt21-news-en-de/en-de/systems in name order, 1,002 segments each, against ref.A.de), one thread,
 * with the reference implementations timed beside them on the same machine where they are installed.
 *
 * Palette, per metric, two ways (tinybench medians and process CPU time per call): "warm", one metric object scoring
 * all five systems again and again with its references prepared once (what a long-lived library user or palette nbest
 * sees: every word's stem and synonyms already known, and for METEOR each line's word ids, since its object keeps them by
 * line text); "fresh", a new metric object per call that prepares the
 * references and scores the five systems (one palette score run; METEOR learns each word's stem and synonyms as it
 * goes). METEOR's WordNet table is read once, before either (NLTK's WordNet is loaded once too), and timed apart.
 *
 * NLTK 3.8 (GLEU, RIBES, METEOR) and jiwer (CER): bench/nltk-sentence.py on the same lines, given the token lists
 * Palette's 13a tokenizer makes (the tokenization is not in NLTK's time; it is in Palette's), CPU time of one run.
 * Its python is `$PALETTE_PYTHON` (default python3); a missing package is reported, not an error. Corpus scores are
 * printed beside each figure so that both sides are seen to compute the same thing. Skipped with a message when
 * ../shared is absent.
 *
 * Run: npx tsx bench/index.ts nltk-sentence
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Cer } from '../src/metrics/cer/cer.js';
import { Gleu } from '../src/metrics/gleu/gleu.js';
import { Meteor } from '../src/metrics/meteor/meteor.js';
import { meteorSynonyms } from '../src/metrics/meteor/wordnet.js';
import { sumRows, type Metric } from '../src/metrics/metric.js';
import { Ribes } from '../src/metrics/ribes/ribes.js';
import { pySplit } from '../src/text/pystr.js';
import { bleuTokenize, tokenize13a } from '../src/text/tokenizers/index.js';
import { DATA, fmt, measure } from './english-workloads.js';

const DIR = join(DATA, 'wmt21-news-en-de', 'en-de');

function lines(path: string): string[] {
  const out = readFileSync(path, 'utf8').split('\n');
  if (out[out.length - 1] === '') out.pop();
  return out;
}

/** The `nltk-sentence` scope. */
export async function benchNltkSentence(): Promise<void> {
  if (!existsSync(join(DIR, 'ref.A.de'))) {
    console.log('  ../shared/data/wmt21-news-en-de is absent: CER / GLEU / RIBES / METEOR benchmark skipped');
    return;
  }
  const refs = [lines(join(DIR, 'ref.A.de'))];
  const names = readdirSync(join(DIR, 'systems')).filter((f) => f.endsWith('.de')).sort().slice(0, 5);
  const systems = names.map((n) => lines(join(DIR, 'systems', n)));
  const hyps = systems.reduce((n, s) => n + s.length, 0);
  console.log(`\nWMT21 en-de, ${names.length} systems (${hyps} hypotheses) vs ref.A.de, one thread`);

  const t0 = performance.now();
  meteorSynonyms('warm');
  console.log(`  METEOR: WordNet table read once in ${fmt(performance.now() - t0, 1)} ms`);

  const reference = referenceTimes(refs[0], systems);
  const metrics: [string, string, () => Metric][] = [
    ['CER (jiwer)', 'cer', () => new Cer()],
    ['GLEU (NLTK, 13a)', 'gleu', () => new Gleu()],
    ['RIBES (NLTK, 13a)', 'ribes', () => new Ribes()],
    ['METEOR (NLTK, 13a)', 'meteor', () => new Meteor()],
  ];
  for (const [name, key, make] of metrics) {
    const runAll = (metric: Metric, prepared: ReturnType<Metric['prepareReferences']>): number => {
      let mean = 0;
      for (const s of systems) mean += metric.scoreFromStats(sumRows(metric.segmentStats(s, prepared), metric.statsWidth)).score;
      return mean / systems.length;
    };
    const warmMetric = make();
    const prepared = warmMetric.prepareReferences(refs);
    let mean = 0;
    const warm = await measure(() => (mean = runAll(warmMetric, prepared)), 5);
    const fresh = await measure(() => {
      const metric = make();
      mean = runAll(metric, metric.prepareReferences(refs));
    }, 5);
    const rate = (ms: number): number => (hyps / ms) * 1000;
    console.log(`  ${name.padEnd(20)} mean score ${fmt(mean, 4)}`);
    for (const [how, t] of [['warm', warm], ['fresh', fresh]] as const) {
      console.log(
        `    ${how.padEnd(6)} ${fmt(t.median, 1).padStart(9)} ms median  ${fmt(t.cpu, 1).padStart(9)} ms CPU  ` +
          `${fmt(rate(t.median)).padStart(9)} hyps/s (wall)  ${fmt(rate(t.cpu)).padStart(9)} hyps/s (CPU)`,
      );
    }
    const ref = reference[key];
    if (ref === undefined) continue;
    if ('missing' in ref) {
      console.log(`    ${ref.missing}`);
      continue;
    }
    const theirs = ref.hyps / ref.seconds;
    console.log(
      `    ${ref.who.padEnd(6)} ${fmt(ref.seconds * 1000, 1).padStart(9)} ms CPU for ${ref.hyps} hyps: ${fmt(theirs).padStart(9)} hyps/s (CPU), ` +
        `mean score ${fmt(ref.mean, 4)}; Palette ${fmt(rate(warm.cpu) / theirs, 1)}x warm, ${fmt(rate(fresh.cpu) / theirs, 1)}x fresh (CPU)`,
    );
  }
}

type ReferenceTime = { who: string; seconds: number; hyps: number; mean: number } | { missing: string };

/** NLTK's and jiwer's CPU times on the same lines (bench/nltk-sentence.py), by metric id; {} without python. */
function referenceTimes(refLines: readonly string[], systems: readonly (readonly string[])[]): Record<string, ReferenceTime> {
  const tokens = (line: string): string[] => pySplit(bleuTokenize(line, tokenize13a, false));
  const dir = mkdtempSync(join(tmpdir(), 'palette-nltk-bench-'));
  try {
    const input = join(dir, 'tokens.json');
    writeFileSync(input, JSON.stringify({
      refs: refLines,
      ref_tokens: refLines.map(tokens),
      systems: systems.map((lines) => ({ lines, tokens: lines.map(tokens) })),
    }));
    const python = process.env.PALETTE_PYTHON ?? 'python3';
    const script = fileURLToPath(new URL('./nltk-sentence.py', import.meta.url));
    const r = spawnSync(python, [script, input], { encoding: 'utf8', maxBuffer: 1 << 24 });
    if (r.status !== 0) {
      console.log(`  NLTK/jiwer not timed: ${python} ${script} failed: ${(r.error?.message ?? r.stderr).trim().split('\n').pop()}`);
      return {};
    }
    const out = JSON.parse(r.stdout) as Record<string, { seconds: number; hyps: number; mean: number; missing?: string } | string | null>;
    if (out.nltk === null) console.log(`  NLTK not timed: ${String(out.nltk_missing)}`);
    const result: Record<string, ReferenceTime> = {};
    for (const key of ['cer', 'gleu', 'ribes', 'meteor']) {
      const v = out[key];
      if (v === undefined || v === null || typeof v === 'string') continue;
      result[key] = v.missing !== undefined ? { missing: v.missing } : { who: key === 'cer' ? 'jiwer' : 'NLTK', ...v };
    }
    return result;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
