/**
 * Palette in the browser against the CLI in-process, same machine, same data: WMT17 en-de newstest2017 (the 16
 * systems of ../shared/data/sacrebleu-tests/wmt17-en-de), BLEU + chrF.
 *   - Node: `palette score REF -i SYS… -m bleu chrf` run in-process (src/cli/main.ts `run`), files read from disk.
 *   - Browser library (headless Chromium, puppeteer-core): `scoreCorpora` from `File`s, in the page's thread, and
 *     on the Web Worker pool with every thread the browser reports.
 *   - Page vs `palette report --bootstrap 0` in-process: the scoring page from the click to its report.
 * Medians of 5 after a warm-up. Run: `npx tsx bench/browser.ts` (needs /usr/bin/chromium and ../shared).
 */
import '../src/node/install.js';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
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

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

async function timeNode(args: string[]): Promise<{ wall: number; cpu: number }> {
  const walls: number[] = [];
  const cpus: number[] = [];
  for (let i = 0; i <= RUNS; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    if ((await run(args, silent)) !== 0) throw new Error(`palette ${args[0]} failed`);
    const wall = performance.now() - t0;
    const c = process.cpuUsage(c0);
    if (i > 0) {
      walls.push(wall);
      cpus.push((c.user + c.system) / 1000);
    }
  }
  return { wall: median(walls), cpu: median(cpus) };
}

async function main(): Promise<void> {
  if (!existsSync(join(DATA, 'ref.de')) || !HAVE_CHROMIUM) {
    console.log('browser: skipped — needs ../shared/data/sacrebleu-tests/wmt17-en-de and /usr/bin/chromium');
    return;
  }
  const ref = join(DATA, 'ref.de');
  const systems = readdirSync(join(DATA, 'systems')).sort().map((s) => join(DATA, 'systems', s));
  const lines = readFileSync(ref, 'utf8').split('\n').length - 1;
  console.log(`workload: WMT17 en-de, ${systems.length} systems × ${lines} segments, BLEU + chrF`);

  const score = await timeNode(['score', ref, '-i', ...systems, '-m', 'bleu', 'chrf']);
  const out = join(mkdtempSync(join(tmpdir(), 'palette-bench-browser-')), 'r.html');
  const report = await timeNode(['report', ref, '-i', ...systems, '-m', 'bleu', 'chrf', '--bootstrap', '0', '-q', '-o', out]);

  const dir = mkdtempSync(join(tmpdir(), 'palette-bench-browser-'));
  const { buildBrowser } = (await import(join(ROOT, 'scripts/build-browser.mjs'))) as { buildBrowser(out: string): Promise<unknown> };
  await buildBrowser(dir);
  const { writeFileSync } = await import('node:fs');
  writeFileSync(
    join(dir, 'dist/site/lib.html'),
    '<!doctype html><script type="module">import * as lib from "./palette.js"; await lib.loadWasm(); window.lib = lib;\n' +
      'window.bench = async (payload, names, workers, runs) => {\n' +
      '  const file = (n) => new File([Uint8Array.from(payload[n], (c) => c.charCodeAt(0))], n);\n' +
      '  const times = [];\n' +
      '  for (let i = 0; i <= runs; i++) {\n' +
      "    const refs = [{ name: 'ref.de', input: file('ref.de') }];\n" +
      '    const sys = names.map((n) => ({ name: n, input: file(n) }));\n' +
      '    const t0 = performance.now();\n' +
      "    await lib.scoreCorpora(sys, refs, { metrics: ['bleu', 'chrf'], workers, pool: workers > 1 ? lib.webWorkerPool() : undefined, minPoolWork: 0 });\n" +
      '    if (i > 0) times.push(performance.now() - t0);\n' +
      '  }\n' +
      '  times.sort((a, b) => a - b);\n' +
      '  return times[Math.floor(times.length / 2)];\n' +
      '};</script>',
  );
  const { copyFileSync } = await import('node:fs');
  copyFileSync(join(dir, 'dist/web/palette.js'), join(dir, 'dist/site/palette.js'));
  const site = await startSiteServer(0, join(dir, 'dist/site'));
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    await page.goto(`${site.url}lib.html`);
    await page.waitForFunction('window.lib !== undefined');
    const payload = Object.fromEntries([ref, ...systems].map((f) => [f.split('/').pop()!, readFileSync(f, 'latin1')]));
    // The timing loop lives in the page's own script (lib.html): tsx would wrap functions handed to evaluate.
    const library = async (workers: number): Promise<number> =>
      page.evaluate(
        (payload, names, workers, runs) => (globalThis as any).bench(payload, names, workers, runs),
        payload,
        systems.map((s) => s.split('/').pop()!),
        workers,
        RUNS,
      ) as Promise<number>;
    const threads = (await page.evaluate('navigator.hardwareConcurrency')) as number;
    const lib1 = await library(1);
    const libN = await library(threads);

    const pageTimes: number[] = [];
    for (let i = 0; i <= RUNS; i++) {
      await page.goto(site.url);
      await page.waitForSelector('form[data-ready=yes]');
      await (await page.$('#refs-files'))!.uploadFile(ref);
      await (await page.$('#hyps-files'))!.uploadFile(...systems);
      await page.evaluate("document.getElementById('bootstrap').value = '0'");
      const t0 = Date.now();
      await page.click('#score');
      await page.waitForFunction("/^Done/.test(document.getElementById('status').textContent)", { timeout: 120_000, polling: 10 });
      if (i > 0) pageTimes.push(Date.now() - t0);
    }
    const pageMs = median(pageTimes);
    const f = (ms: number): string => `${ms.toFixed(0).padStart(6)} ms`;
    console.log(`Node  palette score in-process        ${f(score.wall)} wall, ${f(score.cpu)} CPU`);
    console.log(`Chromium scoreCorpora, page thread     ${f(lib1)} wall  (${(lib1 / score.wall).toFixed(2)}× the CLI)`);
    console.log(`Chromium scoreCorpora, ${threads} threads       ${f(libN)} wall  (${(libN / score.wall).toFixed(2)}× the CLI)`);
    console.log(`Node  palette report --bootstrap 0     ${f(report.wall)} wall, ${f(report.cpu)} CPU`);
    console.log(`Chromium scoring page, click → report  ${f(pageMs)} wall  (${(pageMs / report.wall).toFixed(2)}× the CLI's report)`);
  } finally {
    await browser.close();
    site.server.close();
    rmSync(dir, { recursive: true, force: true });
    rmSync(join(out, '..'), { recursive: true, force: true });
  }
}

await main();
