/**
 * CER, GLEU, RIBES and METEOR speed: hypotheses per second on WMT21 en-de (the first 5 systems of
 * ../shared/data/wmt21-news-en-de/en-de/systems in name order, 1,002 segments each, against ref.A.de), one thread,
 * with the reference implementations timed beside them on the same machine where they are installed.
 *
 * Palette, per metric, two ways (tinybench medians and process CPU time per call): "warm", one metric object scoring
 * all five systems again and again with its references prepared once (what a long-lived library user or palette nbest
 * sees: every word's stem and synonyms already known); "fresh", a new metric object per call that prepares the
 * references and scores the five systems (one palette score run, minus start-up: the JIT is warm and METEOR's WordNet
 * table read; METEOR learns each word's stem and synonyms as it goes). METEOR's WordNet table is read once, before
 * either (NLTK's WordNet is loaded once too), and timed apart.
 *
 * METEOR three ways more: "unseen", a new object that first scores the 5 systems (untimed), then the other 15 systems,
 * timed: every line is new to it, the words mostly not (systems share vocabulary), as for a user scoring one more
 * system; NLTK is timed on the same 15 systems after the same 5. "whole", a new object that prepares the reference and
 * scores all 20 systems, timed, against NLTK's two timings together (its one process scoring the 20). "cold", one new
 * Node process (tsx) that reads the table, prepares the reference and scores the 5 systems, timed inside the process
 * from the first METEOR call (JIT warm-up, table read and every word new included; module loading not).
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
import { decodeLines } from '../src/corpus/read-lines.js';
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
  const allNames = readdirSync(join(DIR, 'systems')).filter((f) => f.endsWith('.de')).sort();
  const names = allNames.slice(0, 5);
  const systems = names.map((n) => lines(join(DIR, 'systems', n)));
  const unseenSystems = allNames.slice(5).map((n) => lines(join(DIR, 'systems', n)));
  const systemFiles = names.map((n) => readFileSync(join(DIR, 'systems', n)));
  const unseenFiles = allNames.slice(5).map((n) => readFileSync(join(DIR, 'systems', n)));
  const hyps = systems.reduce((n, s) => n + s.length, 0);
  console.log(`\nWMT21 en-de, ${names.length} systems (${hyps} hypotheses) vs ref.A.de, one thread`);

  const t0 = performance.now();
  meteorSynonyms('warm');
  console.log(`  METEOR: WordNet table read once in ${fmt(performance.now() - t0, 1)} ms`);

  const reference = referenceTimes(refs[0], systems, unseenSystems);
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
    const warm = await measure(() => (mean = runAll(warmMetric, prepared)), WARM_FRESH_CALLS);
    const fresh = await measure(() => {
      const metric = make();
      mean = runAll(metric, metric.prepareReferences(refs));
    }, WARM_FRESH_CALLS);
    const rate = (ms: number): number => (hyps / ms) * 1000;
    console.log(`  ${name.padEnd(20)} mean score ${fmt(mean, 4)}`);
    for (const [how, t] of [['warm', warm], ['fresh', fresh]] as const) {
      console.log(
        `    ${how.padEnd(6)} ${fmt(t.median, 1).padStart(9)} ms median  ${fmt(t.cpu, 1).padStart(9)} ms CPU  ` +
          `${fmt(rate(t.median)).padStart(9)} hyps/s (wall)  ${fmt(rate(t.cpu)).padStart(9)} hyps/s (CPU)`,
      );
    }
    let unseenRate = NaN;
    let coldRate = NaN;
    let wholeRate = NaN;
    const unseenHyps = unseenSystems.reduce((n, s) => n + s.length, 0);
    if (key === 'meteor') {
      const unseen = meteorUnseen(refs, systems, unseenFiles, METEOR_PASSES);
      unseenRate = perSecond(unseenHyps, unseen.cpu);
      console.log(
        `    unseen ${fmt(unseen.wall, 1).padStart(9)} ms median  ${fmt(unseen.cpu, 1).padStart(9)} ms CPU  ` +
          `${fmt(perSecond(unseenHyps, unseen.wall)).padStart(9)} hyps/s (wall)  ${fmt(unseenRate).padStart(9)} hyps/s (CPU)  ` +
          `(${unseenSystems.length} more systems, ${unseenHyps} hyps, after the ${systems.length})`,
      );
      const whole = meteorWhole([readFileSync(join(DIR, 'ref.A.de')), ...systemFiles, ...unseenFiles], METEOR_PASSES);
      wholeRate = perSecond(hyps + unseenHyps, whole.cpu);
      console.log(
        `    whole  ${fmt(whole.wall, 1).padStart(9)} ms median  ${fmt(whole.cpu, 1).padStart(9)} ms CPU  ` +
          `${fmt(perSecond(hyps + unseenHyps, whole.wall)).padStart(9)} hyps/s (wall)  ${fmt(wholeRate).padStart(9)} hyps/s (CPU)  ` +
          `(a new object, the reference prepared, all ${systems.length + unseenSystems.length} systems, ${hyps + unseenHyps} hyps)`,
      );
      const cold = meteorCold();
      if ('failed' in cold) console.log(`    cold   not timed: ${cold.failed}`);
      else {
        coldRate = perSecond(hyps, cold.cpu);
        console.log(
          `    cold   ${fmt(cold.wall, 1).padStart(9)} ms wall    ${fmt(cold.cpu, 1).padStart(9)} ms CPU  ` +
            `${fmt(perSecond(hyps, cold.wall)).padStart(9)} hyps/s (wall)  ${fmt(coldRate).padStart(9)} hyps/s (CPU)  ` +
            `(a new process, mean score ${fmt(cold.mean, 4)})`,
        );
      }
    }
    const ref = reference[key];
    if (ref === undefined) continue;
    if ('missing' in ref) {
      console.log(`    ${ref.missing}`);
      continue;
    }
    const theirs = ref.hyps / ref.seconds;
    const more = key === 'meteor' ? `, ${fmt(coldRate / theirs, 1)}x cold` : '';
    console.log(
      `    ${ref.who.padEnd(6)} ${fmt(ref.seconds * 1000, 1).padStart(9)} ms CPU for ${ref.hyps} hyps: ${fmt(theirs).padStart(9)} hyps/s (CPU), ` +
        `mean score ${fmt(ref.mean, 4)}; Palette ${fmt(rate(warm.cpu) / theirs, 1)}x warm, ${fmt(rate(fresh.cpu) / theirs, 1)}x fresh${more} (CPU)`,
    );
    if (ref.unseen !== undefined) {
      const theirsUnseen = ref.unseen.hyps / ref.unseen.seconds;
      console.log(
        `    ${ref.who.padEnd(6)} ${fmt(ref.unseen.seconds * 1000, 1).padStart(9)} ms CPU for the ${ref.unseen.hyps} unseen hyps: ` +
          `${fmt(theirsUnseen).padStart(9)} hyps/s (CPU); Palette ${fmt(unseenRate / theirsUnseen, 1)}x unseen (CPU)`,
      );
      // NLTK's two timings are one process scoring the 5 systems and then the other 15: all 20, as `whole` does.
      const theirsWhole = (ref.hyps + ref.unseen.hyps) / (ref.seconds + ref.unseen.seconds);
      console.log(
        `    ${ref.who.padEnd(6)} ${fmt((ref.seconds + ref.unseen.seconds) * 1000, 1).padStart(9)} ms CPU for all ${ref.hyps + ref.unseen.hyps} hyps: ` +
          `${fmt(theirsWhole).padStart(9)} hyps/s (CPU); Palette ${fmt(wholeRate / theirsWhole, 1)}x whole (CPU)`,
      );
    }
  }
}

/**
 * Timed calls of each metric's warm and fresh readings (after one warm-up call): their CPU figure is the mean over all
 * of them, V8's background threads included, so a collection or the warm-up weighs less the more calls there are
 * (METEOR's warm call takes about 4 ms: with 5 calls its CPU figure ranged from 3.8 to 13.8 ms).
 */
const WARM_FRESH_CALLS = 25;

/** Passes of METEOR's unseen and whole readings, whose medians are reported. */
const METEOR_PASSES = 15;

/** Hypotheses per second of `hyps` lines in `ms`. */
const perSecond = (hyps: number, ms: number): number => (hyps / ms) * 1000;

/**
 * Medians of wall and CPU milliseconds of `timed` over `passes`, each pass given the lines of `files` read anew from
 * their bytes as `palette score` reads a file (decodeLines: the file decoded, then split), so that no string carries
 * anything from an earlier pass, and what `untimed` set up first. (Copying each line on its own instead gives every
 * line a string of its own in the young generation, which each collection during the pass then copies: 3.6 MB for
 * the 21 files, several milliseconds that a real run does not pay.)
 */
function medianPasses<T>(
  passes: number,
  files: readonly Uint8Array[],
  untimed: () => T,
  timed: (state: T, fresh: string[][]) => void,
): { wall: number; cpu: number } {
  const walls: number[] = [];
  const cpus: number[] = [];
  for (let pass = 0; pass < passes; pass++) {
    const fresh = files.map((bytes) => decodeLines(bytes, 'bench'));
    const state = untimed();
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    timed(state, fresh);
    const c = process.cpuUsage(c0);
    walls.push(performance.now() - t0);
    cpus.push((c.user + c.system) / 1000);
  }
  const median = (a: number[]): number => [...a].sort((x, y) => x - y)[a.length >> 1];
  return { wall: median(walls), cpu: median(cpus) };
}

/**
 * METEOR on lines new to the object: per pass a new object scores `warm` (untimed), then the systems of `timed`;
 * medians of the timed part's wall and CPU milliseconds over `passes`.
 */
function meteorUnseen(refs: string[][], warm: readonly string[][], timed: readonly Uint8Array[], passes: number): { wall: number; cpu: number } {
  return medianPasses(
    passes,
    timed,
    () => {
      const metric = new Meteor();
      const prepared = metric.prepareReferences(refs);
      for (const s of warm) metric.segmentStats(s, prepared);
      return { metric, prepared };
    },
    ({ metric, prepared }, fresh) => {
      for (const s of fresh) metric.segmentStats(s, prepared);
    },
  );
}

/**
 * METEOR on a whole data set in one go: per pass a new object prepares the reference (the first of `files`) and
 * scores every system (the others), all timed; medians over `passes`. The WordNet table is already read and the JIT
 * warm, as in NLTK's timing.
 */
function meteorWhole(files: readonly Uint8Array[], passes: number): { wall: number; cpu: number } {
  return medianPasses(
    passes,
    files,
    () => undefined,
    (_, [ref, ...systems]) => {
      const metric = new Meteor();
      const prepared = metric.prepareReferences([ref]);
      for (const s of systems) metric.segmentStats(s, prepared);
    },
  );
}

/** One METEOR run from scratch in a new process (bench/meteor-cold.ts): its CPU and wall milliseconds, or why not. */
function meteorCold(): { wall: number; cpu: number; mean: number } | { failed: string } {
  const script = fileURLToPath(new URL('./meteor-cold.ts', import.meta.url));
  const r = spawnSync(process.execPath, [...process.execArgv, script], { encoding: 'utf8' });
  if (r.status !== 0) return { failed: (r.error?.message ?? r.stderr).trim().split('\n').pop() ?? '' };
  return JSON.parse(r.stdout) as { wall: number; cpu: number; mean: number };
}

interface Timed {
  seconds: number;
  hyps: number;
  mean: number;
}
type ReferenceTime = (Timed & { who: string; unseen?: Timed }) | { missing: string };

/** NLTK's and jiwer's CPU times on the same lines (bench/nltk-sentence.py), by metric id; {} without python. */
function referenceTimes(
  refLines: readonly string[],
  systems: readonly (readonly string[])[],
  unseenSystems: readonly (readonly string[])[],
): Record<string, ReferenceTime> {
  const tokens = (line: string): string[] => pySplit(bleuTokenize(line, tokenize13a, false));
  const dir = mkdtempSync(join(tmpdir(), 'palette-nltk-bench-'));
  try {
    const input = join(dir, 'tokens.json');
    writeFileSync(input, JSON.stringify({
      refs: refLines,
      ref_tokens: refLines.map(tokens),
      systems: systems.map((lines) => ({ lines, tokens: lines.map(tokens) })),
      unseen_systems: unseenSystems.map((lines) => ({ tokens: lines.map(tokens) })),
    }));
    const python = process.env.PALETTE_PYTHON ?? 'python3';
    const script = fileURLToPath(new URL('./nltk-sentence.py', import.meta.url));
    const r = spawnSync(python, [script, input], { encoding: 'utf8', maxBuffer: 1 << 24 });
    if (r.status !== 0) {
      console.log(`  NLTK/jiwer not timed: ${python} ${script} failed: ${(r.error?.message ?? r.stderr).trim().split('\n').pop()}`);
      return {};
    }
    const out = JSON.parse(r.stdout) as Record<string, (Timed & { missing?: string; unseen?: Timed }) | string | null>;
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
