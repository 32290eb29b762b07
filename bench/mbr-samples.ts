/**
 * MBR sample sets for the pairwise benchmarks: N "samples" per segment of WMT21 en-de, made from the 20 system
 * outputs of that segment (sample k is system k mod 20's translation) and, from the 21st on, copies edited at 1–3
 * seeded random places (a word dropped, two neighbours swapped, a word doubled): near-identical translations of one
 * source, as sampling from one model gives, with the overlap that makes MBR's pairs expensive.
 *
 * Run: npx tsx bench/mbr-samples.ts N SEGMENTS OUT_DIR — writes OUT_DIR/sample-000.txt … (one file per sample, line
 * s = its sample of segment s), the input of `palette mbr --samples`.
 */
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readLines } from '../src/node/read-lines.js';
import { prng } from './workload.js';

/** The WMT21 en-de system outputs, one array of lines per system (sorted by file name). */
export function wmt21Systems(dir: string): string[][] {
  return readdirSync(join(dir, 'systems')).filter((f) => f.endsWith('.de')).sort().map((f) => readLines(join(dir, 'systems', f)));
}

/** Sample `k` of segment `s` (see the file comment). */
export function mbrSample(systems: readonly (readonly string[])[], s: number, k: number): string {
  const base = systems[k % systems.length][s];
  if (k < systems.length) return base;
  const random = prng(k * 7919 + s * 104729);
  const words = base.split(' ');
  const edits = 1 + Math.floor(random() * 3);
  for (let e = 0; e < edits && words.length > 2; e++) {
    const p = Math.floor(random() * (words.length - 1));
    const op = random();
    if (op < 0.4) words.splice(p, 1);
    else if (op < 0.8) [words[p], words[p + 1]] = [words[p + 1], words[p]];
    else words.splice(p, 0, words[p]);
  }
  return words.join(' ');
}

/** Sample streams (`streams[k][s]`) of `n` samples for segments `0 .. segments`. */
export function mbrSampleStreams(systems: readonly (readonly string[])[], n: number, segments: number): string[][] {
  return Array.from({ length: n }, (_, k) => Array.from({ length: segments }, (_, s) => mbrSample(systems, s, k)));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [n, segments, out] = [Number(process.argv[2]), Number(process.argv[3]), process.argv[4]];
  const systems = wmt21Systems(fileURLToPath(new URL('../../shared/data/wmt21-news-en-de/en-de/', import.meta.url)));
  mkdirSync(out, { recursive: true });
  mbrSampleStreams(systems, n, segments).forEach((stream, k) => {
    writeFileSync(join(out, `sample-${String(k).padStart(3, '0')}.txt`), `${stream.join('\n')}\n`);
  });
}
