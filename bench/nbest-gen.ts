/**
 * Generator of realistic, seeded Moses n-best lists and their references, for benchmarks of `palette nbest`.
 *
 * Model (same seed → same bytes): each segment has a hidden source of `length` Zipf-sampled words (`w0`, `w1`, …;
 * rank 0 most frequent). Each reference keeps 75 % of the source tokens (others resampled) with length ± 3. A
 * decoder's n-best entries are near-duplicates, so each segment has one base translation (65 % of the source kept)
 * and every hypothesis rewrites ~10 % of its tokens and varies its length by ± 2; a few hypotheses repeat the
 * previous one exactly (with equal features), as real lists do, so duplicate removal has work. Feature fields look
 * like Moses' (`d= … lm= … tm= … w= …`) and the total score decreases down the list.
 *
 * Files are written in chunks of ~1 MiB (never the whole file as one string).
 *
 * Script: `npx tsx bench/nbest-gen.ts DIR [segments] [hypsPerSegment] [refs] [length] [vocabulary] [seed]`
 */
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { prng, zipf } from './workload.js';

/** Sizes of a generated n-best workload. */
export interface NbestGenOptions {
  /** Number of source segments (= reference lines). */
  readonly segments: number;
  /** Hypotheses per segment. */
  readonly hypsPerSegment: number;
  /** Number of reference files. */
  readonly refs: number;
  /** Mean hypothesis and reference length in tokens. */
  readonly length: number;
  /** Vocabulary size (Zipf ranks). */
  readonly vocabulary: number;
  /** PRNG seed. */
  readonly seed: number;
}

/** What {@link generateNbestFiles} wrote. */
export interface NbestGenResult {
  /** Path of the n-best list. */
  readonly nbest: string;
  /** Paths of the reference files, one per reference. */
  readonly refs: string[];
  /** Number of n-best lines. */
  readonly hypotheses: number;
  /** Hypothesis tokens in the n-best list. */
  readonly hypTokens: number;
  /** Size of the n-best file in bytes. */
  readonly nbestBytes: number;
}

/** Buffered writer: appends strings and flushes ~1 MiB at a time with `writeSync`. */
class ChunkWriter {
  private readonly fd: number;
  private parts: string[] = [];
  private size = 0;
  /** Bytes written so far (ASCII content: one byte per character). */
  bytes = 0;

  constructor(path: string) {
    this.fd = openSync(path, 'w');
  }

  push(text: string): void {
    this.parts.push(text);
    this.size += text.length;
    if (this.size >= 1 << 20) this.flush();
  }

  flush(): void {
    if (this.size === 0) return;
    this.bytes += writeSync(this.fd, this.parts.join(''));
    this.parts = [];
    this.size = 0;
  }

  close(): void {
    this.flush();
    closeSync(this.fd);
  }
}

/** Writes `nbest.txt` and `ref0.txt … ref{refs-1}.txt` under `dir` (created if needed) and returns their paths. */
export function generateNbestFiles(dir: string, o: NbestGenOptions): NbestGenResult {
  mkdirSync(dir, { recursive: true });
  const random = prng(o.seed);
  const word = zipf(o.vocabulary, random);
  // Word strings made once: the generator allocates per line, not per token.
  const words = Array.from({ length: o.vocabulary }, (_, i) => `w${i}`);
  const refPaths = Array.from({ length: o.refs }, (_, j) => join(dir, `ref${j}.txt`));
  const refOut = refPaths.map((p) => new ChunkWriter(p));
  const nbestPath = join(dir, 'nbest.txt');
  const out = new ChunkWriter(nbestPath);
  const source = new Int32Array(o.length);
  const base = new Int32Array(o.length + 2);
  const hyp = new Int32Array(o.length + 2);
  const ref = new Int32Array(o.length + 3);
  let hypTokens = 0;
  let prevLine = '';
  let prevTokens = 0;
  const join_ = (ids: Int32Array, n: number): string => {
    let s = n > 0 ? words[ids[0]] : '';
    for (let i = 1; i < n; i++) s += ' ' + words[ids[i]];
    return s;
  };
  const fixed = (x: number): string => x.toFixed(4);
  for (let s = 0; s < o.segments; s++) {
    for (let i = 0; i < o.length; i++) source[i] = word();
    for (const w of refOut) {
      const n = Math.max(1, o.length + Math.floor(random() * 7) - 3);
      for (let i = 0; i < n; i++) ref[i] = i < o.length && random() >= 0.25 ? source[i] : word();
      w.push(join_(ref, n) + '\n');
    }
    for (let i = 0; i < base.length; i++) base[i] = i < o.length && random() >= 0.35 ? source[i] : word();
    let score = -10 - random() * 20;
    for (let h = 0; h < o.hypsPerSegment; h++) {
      score -= random() * 0.05;
      if (h > 0 && random() < 0.02) {
        // An exact repeat (same words, same features): what duplicate removal exists for.
        out.push(prevLine);
        hypTokens += prevTokens;
        continue;
      }
      const n = Math.max(1, o.length + Math.floor(random() * 5) - 2);
      for (let i = 0; i < n; i++) hyp[i] = random() < 0.1 ? word() : base[i];
      hypTokens += n;
      const lm = -2.5 * n - random() * 10;
      const line =
        `${s} ||| ${join_(hyp, n)} ||| d= ${fixed(-random() * 8)} 0 0 0 lm= ${fixed(lm)} ` +
        `tm= ${fixed(-random() * 20)} ${fixed(-random() * 20)} w= ${-n} ||| ${fixed(score)}\n`;
      out.push(line);
      prevLine = line;
      prevTokens = n;
    }
  }
  for (const w of refOut) w.close();
  out.close();
  return { nbest: nbestPath, refs: refPaths, hypotheses: o.segments * o.hypsPerSegment, hypTokens, nbestBytes: out.bytes };
}

/** Defaults of the workload: 1000 segments × 1000 hypotheses, ~25 tokens, 4 references. */
export const DEFAULT_NBEST_WORKLOAD: NbestGenOptions = {
  segments: 1000,
  hypsPerSegment: 1000,
  refs: 4,
  length: 25,
  vocabulary: 30_000,
  seed: 2024,
};

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [dir, ...sizes] = process.argv.slice(2);
  if (dir === undefined) {
    console.error('usage: npx tsx bench/nbest-gen.ts DIR [segments] [hypsPerSegment] [refs] [length] [vocabulary] [seed]');
    process.exitCode = 2;
  } else {
    const keys = ['segments', 'hypsPerSegment', 'refs', 'length', 'vocabulary', 'seed'] as const;
    const o: Record<string, number> = { ...DEFAULT_NBEST_WORKLOAD };
    sizes.forEach((v, i) => (o[keys[i]] = Number(v)));
    const r = generateNbestFiles(dir, o as unknown as NbestGenOptions);
    console.log(`${r.nbest}: ${r.hypotheses} hypotheses, ${r.hypTokens} tokens, ${r.nbestBytes} bytes; refs: ${r.refs.join(' ')}`);
  }
}
