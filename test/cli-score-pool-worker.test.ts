/**
 * `palette score -j N` on a run large enough for the corpus engine's pool: bin/palette runs the score command as a
 * CommonJS file (dist/bundle/score-command.cjs), and its pool workers must start from the bundle's worker script
 * (dist/bundle/worker.cjs, through the code-cache loader beside it). A worker that cannot find its script fails
 * every task it is given, so the run either fails or is scored by the calling thread alone; here the workers' own V8
 * coverage (every thread of the process writes one) must show the bundled worker script loaded, evaluating its own
 * kind's code and not the n-best engine, ORANGE or the metric registry, and the rows must be those of `-j 1`.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { MIN_POOL_WORK } from '../src/engine/corpus/index.js';
import { PALETTE_BIN } from './helpers/palette-process.js';
import { mulberry32 } from './helpers/mulberry32.js';

const dir = mkdtempSync(join(tmpdir(), 'palette-cli-score-pool-worker-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Lines of a few random words from a small vocabulary (seeded). */
function lines(n: number, seed: number): string {
  const rand = mulberry32(seed);
  const words = ['the', 'cat', 'sat', 'on', 'a', 'mat', 'dog', 'ran', 'far', 'away', 'house', 'blue'];
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const len = 3 + Math.floor(rand() * 8);
    out.push(Array.from({ length: len }, () => words[Math.floor(rand() * words.length)]).join(' '));
  }
  return out.join('\n') + '\n';
}

describe('palette score -j 2 from bin/palette', () => {
  it('starts its pool worker from the bundled worker script and scores what -j 1 does', () => {
    // One metric, one system: every segment a distinct unit, just past the engine's minimum for a pool.
    const segments = MIN_POOL_WORK + 1000;
    const ref = join(dir, 'ref');
    const hyp = join(dir, 'hyp');
    writeFileSync(ref, lines(segments, 1));
    writeFileSync(hyp, lines(segments, 2));
    const coverage = join(dir, 'coverage');
    const run = (jobs: string, env: NodeJS.ProcessEnv = process.env) =>
      spawnSync(process.execPath, [PALETTE_BIN, 'score', '-r', ref, '-i', hyp, '-m', 'bleu', '-j', jobs], { encoding: 'utf8', env });
    const pooled = run('2', { ...process.env, NODE_V8_COVERAGE: coverage });
    expect(pooled.stderr).toBe('');
    expect(pooled.status).toBe(0);
    expect(pooled.stdout).toBe(run('1').stdout);
    const bundle = join(PALETTE_BIN, '..', '..', 'dist', 'bundle');
    const loaded = new Set<string>();
    // Modules of the worker script that ran: esbuild wraps each module evaluated on demand in a function named after
    // it ("dist/<module>.js"), whose count says whether it ran.
    const evaluated = new Set<string>();
    for (const f of readdirSync(coverage)) {
      const scripts = JSON.parse(readFileSync(join(coverage, f), 'utf8')).result as { url: string; functions: { functionName: string; ranges: { count: number }[] }[] }[];
      for (const script of scripts) {
        loaded.add(script.url);
        if (script.url !== pathToFileURL(join(bundle, 'worker.cjs')).href) continue;
        for (const fn of script.functions) {
          const m = /^dist\/(\S+)\.js$/.exec(fn.functionName);
          if (m !== null && fn.ranges[0].count > 0) evaluated.add(m[1]);
        }
      }
    }
    expect([...loaded]).toContain(pathToFileURL(join(bundle, 'worker-loader.cjs')).href);
    expect([...loaded]).toContain(pathToFileURL(join(bundle, 'worker.cjs')).href);
    expect([...evaluated].filter((m) => m.startsWith('pool/kinds/'))).toEqual(['pool/kinds/corpus']);
    expect([...evaluated].filter((m) => /^engine\/nbest\/|^meta\/|^metrics\/registry$/.test(m))).toEqual([]);
  }, 120_000);
});
