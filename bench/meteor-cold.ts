/**
 * One METEOR run from scratch, for bench/nltk-sentence.ts's "cold" figure: in a new process, the first 5 WMT21
 * en-de systems (name order) against ref.A.de, timed from the first METEOR call to the last row: the WordNet table
 * read, the JIT's warm-up and every word new to the metric are in it; loading the modules is not. Prints
 * `{"wall": ms, "cpu": ms, "mean": mean score}`.
 */
import '../src/node/install.js';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Meteor } from '../src/metrics/meteor/meteor.js';
import { sumRows } from '../src/metrics/metric.js';
import { DATA } from './english-workloads.js';

const DIR = join(DATA, 'wmt21-news-en-de', 'en-de');
const lines = (path: string): string[] => {
  const out = readFileSync(path, 'utf8').split('\n');
  if (out[out.length - 1] === '') out.pop();
  return out;
};
const refs = [lines(join(DIR, 'ref.A.de'))];
const systems = readdirSync(join(DIR, 'systems'))
  .filter((f) => f.endsWith('.de'))
  .sort()
  .slice(0, 5)
  .map((n) => lines(join(DIR, 'systems', n)));

const t0 = performance.now();
const c0 = process.cpuUsage();
const metric = new Meteor();
const prepared = metric.prepareReferences(refs);
let mean = 0;
for (const s of systems) mean += metric.scoreFromStats(sumRows(metric.segmentStats(s, prepared), 2)).score;
const c = process.cpuUsage(c0);
process.stdout.write(`${JSON.stringify({ wall: performance.now() - t0, cpu: (c.user + c.system) / 1000, mean: mean / systems.length })}\n`);
