/**
 * Palette in the browser against the CLI in-process, same machine, same data: WMT17 en-de newstest2017 (the 16
 * systems of ../shared/data/sacrebleu-tests/wmt17-en-de), BLEU + chrF.
 *   - Node: `palette score REF -i SYS… -m bleu chrf` run in-process (src/cli/main.ts `run`), files read from disk.
 *   - Browser library (headless Chromium, puppeteer-core): `scoreCorpora` from `File`s, in the page's thread, and
 *     on the Web Worker pool with every thread the browser reports (the pool forced on, `minPoolWork: 0`: this
 *     workload is below the engine's MIN_POOL_WORK, where the library and `palette score` keep one thread).
 *   - Page vs `palette report --bootstrap 0` in-process: the scoring page from the click to its report.
 *   - The pool's start-up cost: the first 100 segments of every system (3,200 units of work), in the page's thread
 *     and on the forced pool — why small inputs stay in one thread.
 * The five measurements take turns in every round, so that a change of load on a shared machine hits them alike;
 * medians of 5 rounds after a warm-up one. Wall time and CPU time (user + system): Node's from `process.cpuUsage`,
 * Chromium's summed over all its processes (/proc; page, workers, browser), so a busy machine shows as wall ≫ CPU.
 * Run: `npx tsx bench/browser.ts` (needs /usr/bin/chromium and ../shared).
 */
import '../src/node/install.js';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { run } from '../src/cli/main.js';
import { startSiteServer } from '../src/cli/serve/command.js';
import { HAVE_CHROMIUM, launchChromium } from '../test/helpers/chromium.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DATA = fileURLToPath(new URL('../../shared/data/sacrebleu-tests/wmt17-en-de/', import.meta.url));
const silent = { stdout: { write: () => true }, stderr: { write: () => true }, env: {} };
const RUNS = 5;

interface Time {
  readonly wall: number;
  /** CPU ms, or NaN where it cannot be read. */
  readonly cpu: number;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

async function timeNode(args: string[]): Promise<Time> {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  if ((await run(args, silent)) !== 0) throw new Error(`palette ${args[0]} failed`);
  const wall = performance.now() - t0;
  const c = process.cpuUsage(c0);
  return { wall, cpu: (c.user + c.system) / 1000 };
}

const TICK_MS = (() => {
  try {
    return 1000 / Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
  } catch {
    return 10;
  }
})();

/** CPU ms (user + system) of process `root` and every process below it, from /proc; NaN without /proc. */
function treeCpu(root: number | undefined): number {
  if (root === undefined || !existsSync('/proc/self/stat')) return NaN;
  const stats = new Map<number, { ppid: number; ticks: number }>();
  for (const entry of readdirSync('/proc')) {
    if (!/^[0-9]+$/.test(entry)) continue;
    try {
      const text = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // Fields after the command name, which is in parentheses and may hold spaces.
      const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
      stats.set(Number(entry), { ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]) });
    } catch {
      // The process ended meanwhile.
    }
  }
  let ticks = 0;
  const seen = new Set<number>([root]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, s] of stats) {
      if (!seen.has(pid) && seen.has(s.ppid)) {
        seen.add(pid);
        grew = true;
      }
    }
  }
  for (const pid of seen) ticks += stats.get(pid)?.ticks ?? 0;
  return ticks * TICK_MS;
}

async function main(): Promise<void> {
  if (!existsSync(join(DATA, 'ref.de')) || !HAVE_CHROMIUM) {
    console.log('browser: skipped — needs ../shared/data/sacrebleu-tests/wmt17-en-de and /usr/bin/chromium');
    return;
  }
  const ref = join(DATA, 'ref.de');
  const systems = readdirSync(join(DATA, 'systems')).sort().map((s) => join(DATA, 'systems', s));
  const names = systems.map((s) => s.split('/').pop()!);
  const lines = readFileSync(ref, 'utf8').split('\n').length - 1;
  console.log(`workload: WMT17 en-de, ${systems.length} systems × ${lines} segments, BLEU + chrF`);
  const out = join(mkdtempSync(join(tmpdir(), 'palette-bench-browser-')), 'r.html');

  const dir = mkdtempSync(join(tmpdir(), 'palette-bench-browser-'));
  const { buildBrowser } = (await import(join(ROOT, 'scripts/build-browser.mjs'))) as { buildBrowser(out: string): Promise<unknown> };
  await buildBrowser(dir);
  // The timed code lives in the page's own script: tsx would wrap functions handed to evaluate. The Files are made
  // once, outside the timing.
  writeFileSync(
    join(dir, 'dist/site/lib.html'),
    '<!doctype html><script type="module">import * as lib from "./palette.js"; await lib.loadWasm(); window.lib = lib;\n' +
      'const file = (n, t) => new File([Uint8Array.from(t, (c) => c.charCodeAt(0))], n);\n' +
      "const head = (t, n) => t.split('\\n').slice(0, n).join('\\n') + '\\n';\n" +
      'window.load = (payload) => {\n' +
      '  window.files = Object.fromEntries(Object.entries(payload).map(([n, t]) => [n, file(n, t)]));\n' +
      '  window.small = Object.fromEntries(Object.entries(payload).map(([n, t]) => [n, file(n, head(t, 100))]));\n' +
      '};\n' +
      'window.bench = async (names, workers, small) => {\n' +
      '  const files = small ? window.small : window.files;\n' +
      "  const refs = [{ name: 'ref.de', input: files['ref.de'] }];\n" +
      '  const sys = names.map((n) => ({ name: n, input: files[n] }));\n' +
      '  const t0 = performance.now();\n' +
      "  await lib.scoreCorpora(sys, refs, { metrics: ['bleu', 'chrf'], workers, pool: workers > 1 ? lib.webWorkerPool() : undefined, minPoolWork: 0 });\n" +
      '  return performance.now() - t0;\n' +
      '};</script>',
  );
  writeFileSync(join(dir, 'dist/site/palette.js'), readFileSync(join(dir, 'dist/web/palette.js')));
  const site = await startSiteServer(0, join(dir, 'dist/site'));
  const browser = await launchChromium();
  const pid = browser.process()?.pid;
  try {
    const libPage = await browser.newPage();
    await libPage.goto(`${site.url}lib.html`);
    await libPage.waitForFunction('window.lib !== undefined');
    const payload = Object.fromEntries([ref, ...systems].map((f) => [f.split('/').pop()!, readFileSync(f, 'latin1')]));
    await libPage.evaluate((p) => (globalThis as any).load(p), payload);
    const threads = (await libPage.evaluate('navigator.hardwareConcurrency')) as number;
    const library = async (workers: number, small = false): Promise<Time> => {
      const c0 = treeCpu(pid);
      const wall = (await libPage.evaluate((n, w, s) => (globalThis as any).bench(n, w, s), names, workers, small)) as number;
      return { wall, cpu: treeCpu(pid) - c0 };
    };
    const scoringPage = await browser.newPage();
    const pageRun = async (): Promise<Time> => {
      await scoringPage.goto(site.url);
      await scoringPage.waitForSelector('form[data-ready=yes]');
      await (await scoringPage.$('#refs-files'))!.uploadFile(ref);
      await (await scoringPage.$('#hyps-files'))!.uploadFile(...systems);
      await scoringPage.evaluate("document.getElementById('bootstrap').value = '0'");
      const c0 = treeCpu(pid);
      const t0 = Date.now();
      await scoringPage.click('#score');
      await scoringPage.waitForFunction("/^Done/.test(document.getElementById('status').textContent)", { timeout: 120_000, polling: 10 });
      const time = { wall: Date.now() - t0, cpu: treeCpu(pid) - c0 };
      // The report then renders in the page's frame: let it finish before the next measurement starts.
      const frame = await (await scoringPage.$('#report'))!.contentFrame();
      await frame!.waitForSelector('html[data-rendered="ok"]', { timeout: 120_000 });
      await scoringPage.goto('about:blank');
      // The report's renderer winds down before the next round's first measurement.
      await new Promise((r) => setTimeout(r, 500));
      return time;
    };

    const kinds = ['score', 'lib1', 'libN', 'report', 'page', 'small1', 'smallN'] as const;
    const times = Object.fromEntries(kinds.map((k) => [k, [] as Time[]])) as Record<(typeof kinds)[number], Time[]>;
    for (let i = 0; i <= RUNS; i++) {
      const round = {
        small1: await library(1, true),
        smallN: await library(threads, true),
        score: await timeNode(['score', ref, '-i', ...systems, '-m', 'bleu', 'chrf']),
        lib1: await library(1),
        libN: await library(threads),
        report: await timeNode(['report', ref, '-i', ...systems, '-m', 'bleu', 'chrf', '--bootstrap', '0', '-q', '-o', out]),
        page: await pageRun(),
      };
      // The first round warms every path up (JIT, caches, the page's files) and is not counted.
      if (i > 0) for (const k of kinds) times[k].push(round[k]);
    }
    const m = Object.fromEntries(kinds.map((k) => [k, { wall: median(times[k].map((t) => t.wall)), cpu: median(times[k].map((t) => t.cpu)) }])) as Record<
      (typeof kinds)[number],
      Time
    >;
    // Paired ratios: the median of each round's ratio, robust to a load change between rounds.
    const paired = (a: (typeof kinds)[number], b: (typeof kinds)[number]): number => median(times[a].map((t, r) => t.wall / times[b][r].wall));
    const f = (ms: number): string => (Number.isNaN(ms) ? '     ? ms' : `${ms.toFixed(0).padStart(6)} ms`);
    const line = (label: string, t: Time, ratio?: string): string => `${label.padEnd(40)}${f(t.wall)} wall, ${f(t.cpu)} CPU${ratio ?? ''}`;
    console.log(line('Node  palette score in-process', m.score));
    console.log(line('Chromium scoreCorpora, page thread', m.lib1, `  (paired ${paired('lib1', 'score').toFixed(2)}× the CLI's wall)`));
    console.log(line(`Chromium scoreCorpora, ${threads} threads`, m.libN, `  (paired ${paired('libN', 'score').toFixed(2)}× the CLI's wall)`));
    console.log(line('Node  palette report --bootstrap 0', m.report));
    console.log(line('Chromium scoring page, click → report', m.page, `  (paired ${paired('page', 'report').toFixed(2)}× the CLI's report wall)`));
    console.log(line('Chromium, first 100 segments, 1 thread', m.small1));
    console.log(line(`Chromium, first 100 segments, ${threads} threads`, m.smallN, `  (paired ${paired('smallN', 'small1').toFixed(2)}× one thread)`));
  } finally {
    await browser.close();
    site.server.close();
    rmSync(dir, { recursive: true, force: true });
    rmSync(join(out, '..'), { recursive: true, force: true });
  }
}

await main();
