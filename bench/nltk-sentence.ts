/**
 * CER, GLEU, RIBES and METEOR speed: hypotheses per second on WMT21 en-de (the first 5 systems of
 * ../shared/data/wmt21-news-en-de/en-de/systems in name order, 1,002 segments each, against ref.A.de), one thread.
 * Per metric: references prepared once, then every system scored (text → statistics rows → corpus score), as
 * tinybench medians and process CPU time per call. METEOR's first call also decodes the WordNet table; that one-time
 * cost is timed apart, before the measured runs. Corpus scores are printed so that the figures are for a real
 * computation. Skipped with a message when ../shared is absent.
 *
 * Run: npx tsx bench/index.ts nltk-sentence
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Cer } from '../src/metrics/cer/cer.js';
import { Gleu } from '../src/metrics/gleu/gleu.js';
import { Meteor } from '../src/metrics/meteor/meteor.js';
import { meteorSynonyms } from '../src/metrics/meteor/wordnet.js';
import { sumRows, type Metric } from '../src/metrics/metric.js';
import { Ribes } from '../src/metrics/ribes/ribes.js';
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
  console.log(`  METEOR: WordNet table decoded once in ${fmt(performance.now() - t0, 1)} ms`);

  const metrics: [string, Metric][] = [
    ['CER (jiwer)', new Cer()],
    ['GLEU (NLTK, 13a)', new Gleu()],
    ['RIBES (NLTK, 13a)', new Ribes()],
    ['METEOR (NLTK, 13a)', new Meteor()],
  ];
  for (const [name, metric] of metrics) {
    const prepared = metric.prepareReferences(refs);
    let mean = 0;
    const t = await measure(() => {
      mean = 0;
      for (const s of systems) mean += metric.scoreFromStats(sumRows(metric.segmentStats(s, prepared), metric.statsWidth)).score;
      mean /= systems.length;
    }, 5);
    console.log(
      `  ${name.padEnd(20)} ${fmt(t.median, 1).padStart(9)} ms median  ${fmt(t.cpu, 1).padStart(9)} ms CPU  ` +
        `${fmt((hyps / t.median) * 1000).padStart(9)} hyps/s (wall)  ${fmt((hyps / t.cpu) * 1000).padStart(9)} hyps/s (CPU)  ` +
        `mean score ${fmt(mean, 4)}`,
    );
  }
}
