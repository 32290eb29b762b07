/**
 * The offline scoring page (src/page/, built into dist/site/ and served by `palette serve`'s server) in headless
 * Chromium: files picked in the page's inputs give `palette report`'s HTML byte for byte (BLEU, chrF, TER, ROUGE-L
 * with signatures, bootstrap intervals, paired significance, drill-down); bad files (invalid UTF-8, an empty file,
 * a line-count mismatch) give the CLI's error line; a 100k-line pair of files is scored with the progress bar moving
 * while a timer of the page keeps ticking. Screenshots go to a temporary folder, printed so they can be looked at
 * (`PALETTE_SCREENSHOTS=DIR` keeps them there).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, ElementHandle, Page } from 'puppeteer-core';

// The callbacks run in the page: they see the DOM, which this project's Node-only types do not declare.
/* eslint-disable @typescript-eslint/no-explicit-any */
declare const document: any;
declare const window: any;
type HTMLInputElement = { value: string; checked: boolean };
type HTMLProgressElement = { value: number };
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runReportCommand } from '../src/cli/report-command/command.js';
import { startSiteServer } from '../src/cli/serve/command.js';
import { CHROMIUM_SKIP, HAVE_CHROMIUM, launchChromium } from './helpers/chromium.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SAMPLE = join(ROOT, 'samples/wmt17-en-de');
const SYSTEMS = ['LIUM-NMT.4900.de', 'online-B.0.de', 'uedin-nmt.4722.de'].map((s) => join(SAMPLE, 'sys', s));

/** `palette report` in-process: its HTML, or its error line. */
async function cliReport(args: string[]): Promise<{ status: number; html: string; stderr: string }> {
  const out = join(mkdtempSync(join(tmpdir(), 'palette-page-cli-')), 'report.html');
  let stderr = '';
  const status = await runReportCommand([...args, '-o', out, '-q'], {
    stdout: { write: () => true },
    stderr: { write: (t: string) => (stderr += t) },
    env: {},
  });
  let html = '';
  try {
    html = readFileSync(out, 'utf8');
  } catch {
    // No report: bad input.
  }
  rmSync(join(out, '..'), { recursive: true, force: true });
  return { status, html, stderr };
}

describe.skipIf(!HAVE_CHROMIUM)(`the scoring page in headless Chromium (${CHROMIUM_SKIP.replace('skipped: ', 'skipped without it: ')})`, () => {
  let buildDir = '';
  let shots = '';
  let browser: Browser;
  let page: Page;
  let site: Awaited<ReturnType<typeof startSiteServer>>;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    buildDir = mkdtempSync(join(tmpdir(), 'palette-page-'));
    shots = process.env.PALETTE_SCREENSHOTS || join(buildDir, 'screenshots');
    mkdirSync(shots, { recursive: true });
    const { buildBrowser } = (await import(join(ROOT, 'scripts/build-browser.mjs'))) as { buildBrowser(out: string): Promise<unknown> };
    await buildBrowser(buildDir);
    site = await startSiteServer(0, join(buildDir, 'dist/site'));
    browser = await launchChromium();
    page = await browser.newPage();
    await page.setViewport({ width: 1366, height: 900 });
    page.on('pageerror', (e) => pageErrors.push(String(e)));
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    site?.server.close();
    console.log(`browser-page screenshots: ${shots}`);
    if (buildDir !== '' && !process.env.PALETTE_SCREENSHOTS) rmSync(buildDir, { recursive: true, force: true });
  });

  /** Opens the page afresh, picks files and options, presses Score (by keyboard), waits for the outcome. */
  async function score(
    refs: string[],
    systems: string[],
    options: { metrics?: string[]; bootstrap?: number; paired?: string; baseline?: string } = {},
  ): Promise<{ status: string; error: string | null }> {
    await page.goto(site.url);
    await page.waitForSelector('form[data-ready=yes]');
    await ((await page.$('#refs-files')) as ElementHandle).uploadFile(...refs);
    await ((await page.$('#hyps-files')) as ElementHandle).uploadFile(...systems);
    if (options.metrics !== undefined) {
      for (const id of ['bleu', 'chrf', 'ter', 'rouge-l']) {
        const box = `#metric-${id}`;
        const checked = await page.$eval(box, (el) => (el as HTMLInputElement).checked);
        if (checked !== options.metrics.includes(id)) await page.click(box);
      }
    }
    if (options.bootstrap !== undefined) {
      await page.$eval('#bootstrap', (el) => ((el as HTMLInputElement).value = ''));
      await page.type('#bootstrap', String(options.bootstrap));
    }
    if (options.paired !== undefined) await page.select('#paired', options.paired);
    if (options.baseline !== undefined) await page.select('#baseline', options.baseline);
    await page.focus('#score');
    await page.keyboard.press('Enter');
    await page.waitForFunction(
      () => /^(Done|Failed)/.test(document.getElementById('status')!.textContent ?? '') || !document.getElementById('error')!.hidden,
      { timeout: 120_000 },
    );
    return page.evaluate(() => ({
      status: document.getElementById('status')!.textContent ?? '',
      error: document.getElementById('error')!.hidden ? null : document.getElementById('error')!.textContent,
    }));
  }

  /** The report the page made (its download link's content). */
  function pageReport(): Promise<string> {
    return page.evaluate(async () => (await fetch(document.getElementById('download')!.getAttribute('href')!)).text());
  }

  it("the sample's report equals palette report's byte for byte (BLEU, chrF, TER, ROUGE-L, intervals, paired bootstrap)", async () => {
    const got = await score([join(SAMPLE, 'ref.de')], SYSTEMS, { metrics: ['bleu', 'chrf', 'ter', 'rouge-l'], bootstrap: 200, paired: 'bs' });
    expect(got.error).toBeNull();
    expect(got.status).toMatch(/^Done: 3 systems scored/);
    const html = await pageReport();
    const cli = await cliReport([join(SAMPLE, 'ref.de'), '-i', ...SYSTEMS, '-m', 'bleu', 'chrf', 'ter', 'rouge-l', '--bootstrap', '200', '--seed', '12345', '--paired-bs']);
    expect(cli.status).toBe(0);
    expect(html.length).toBeGreaterThan(10_000);
    for (const signature of ['BLEU|nrefs:1|', 'chrF2|nrefs:1|', 'TER|nrefs:1|', 'ROUGE-L|']) expect(html).toContain(signature.split('|')[0]);
    expect(html).toBe(cli.html);
    // The report renders inside the page.
    const frame = await (await page.$('#report'))!.contentFrame();
    await frame!.waitForSelector('html[data-rendered="ok"]', { timeout: 30_000 });
    await page.screenshot({ path: join(shots, 'sample-report.png'), fullPage: false });
    await page.evaluate(() => document.getElementById('report')!.scrollIntoView());
    await page.screenshot({ path: join(shots, 'sample-report-frame.png') });
    expect(pageErrors).toEqual([]);
  }, 180_000);

  it('a baseline chosen in the page gives palette report --baseline, byte for byte', async () => {
    const got = await score([join(SAMPLE, 'ref.de')], SYSTEMS, { bootstrap: 0, paired: 'bs', baseline: 'online-B.0.de' });
    expect(got.error).toBeNull();
    const cli = await cliReport([join(SAMPLE, 'ref.de'), '-i', ...SYSTEMS, '--bootstrap', '0', '--seed', '12345', '--paired-bs', '--baseline', 'online-B.0']);
    const html = await pageReport();
    expect(html).toContain('every system against the baseline online-B.0.');
    expect(html).toBe(cli.html);
    const frame = await (await page.$('#report'))!.contentFrame();
    await frame!.waitForSelector('html[data-rendered="ok"]', { timeout: 30_000 });
    await page.evaluate(() => document.getElementById('report')!.scrollIntoView());
    await page.screenshot({ path: join(shots, 'baseline.png') });
  }, 120_000);

  it("bad files give palette report's error line", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'palette-page-bad-'));
    const ref = join(dir, 'ref.txt');
    writeFileSync(ref, 'a b c\nd e f\n');
    const cases: Record<string, Uint8Array | string> = {
      'bad-utf8.txt': Uint8Array.of(0x61, 0x0a, 0x62, 0xc3, 0x28, 0x0a),
      'empty.txt': '',
      'short.txt': 'a b c\n',
    };
    try {
      for (const [name, content] of Object.entries(cases)) {
        const file = join(dir, name);
        writeFileSync(file, content);
        const got = await score([ref], [file]);
        const cli = await cliReport([ref, '-i', file]);
        expect(cli.status).toBe(2);
        expect(got.error).toBe(cli.stderr.trim().replaceAll(`${dir}/`, ''));
        expect(got.error).toMatch(new RegExp(`^palette report: error: ${name.replace('.', '\\.')}`));
        if (name === 'bad-utf8.txt') await page.screenshot({ path: join(shots, 'bad-file.png') });
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it('a 100k-line pair is scored with the progress bar moving while the page keeps responding', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'palette-page-big-'));
    const words = 'the a house cat dog runs sat on mat small big red green blue quickly slowly and of to in'.split(' ');
    let seed = 7;
    const rand = (): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const line = (): string => Array.from({ length: 6 + Math.floor(rand() * 14) }, () => words[Math.floor(rand() * words.length)]).join(' ');
    const n = 100_000;
    const ref = join(dir, 'big.ref');
    const hyp = join(dir, 'big.hyp');
    writeFileSync(ref, Array.from({ length: n }, line).join('\n') + '\n');
    writeFileSync(hyp, Array.from({ length: n }, line).join('\n') + '\n');
    try {
      await page.goto(site.url);
      await page.waitForSelector('form[data-ready=yes]');
      await ((await page.$('#refs-files')) as ElementHandle).uploadFile(ref);
      await ((await page.$('#hyps-files')) as ElementHandle).uploadFile(hyp);
      await page.$eval('#bootstrap', (el) => ((el as HTMLInputElement).value = '0'));
      // A timer of the page: it can only tick while the page's thread is free.
      await page.evaluate(() => {
        const w = window as unknown as { ticks: number; maxGap: number; last: number };
        w.ticks = 0;
        w.maxGap = 0;
        w.last = performance.now();
        setInterval(() => {
          const now = performance.now();
          w.maxGap = Math.max(w.maxGap, now - w.last);
          w.last = now;
          w.ticks++;
        }, 20);
      });
      await page.click('#score');
      const seen: string[] = [];
      let shot = false;
      for (;;) {
        const s = await page.evaluate(() => ({
          value: (document.getElementById('progress') as HTMLProgressElement).value,
          label: document.getElementById('progress-label')!.textContent,
          status: document.getElementById('status')!.textContent ?? '',
          error: document.getElementById('error')!.hidden ? null : document.getElementById('error')!.textContent,
          ticks: (window as unknown as { ticks: number }).ticks,
          maxGap: (window as unknown as { maxGap: number }).maxGap,
        }));
        if (s.error !== null) throw new Error(s.error);
        if (/^Done/.test(s.status)) {
          // A frozen thread would show as a long gap between ticks, and few of them.
          expect(s.ticks).toBeGreaterThan(20);
          expect(s.maxGap).toBeLessThan(2000);
          break;
        }
        seen.push(`${s.label} ${s.value.toFixed(2)}`);
        if (!shot && s.label === 'Scoring' && s.value > 0.2) {
          await page.screenshot({ path: join(shots, 'progress.png') });
          shot = true;
        }
        await new Promise((r) => setTimeout(r, 100));
      }
      const distinct = new Set(seen);
      expect(distinct.size).toBeGreaterThanOrEqual(4);
      expect(seen.some((s) => s.startsWith('Reading files'))).toBe(true);
      expect(seen.some((s) => /^Scoring 0\.[1-9]/.test(s))).toBe(true);
      const html = await pageReport();
      expect(html).toContain('"count":100000');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 240_000);
});
