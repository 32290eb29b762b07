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

/** `palette report` in-process: its HTML, or its error line (and, not `quiet`, its notes and warnings). */
async function cliReport(args: string[], quiet = true): Promise<{ status: number; html: string; stderr: string }> {
  const out = join(mkdtempSync(join(tmpdir(), 'palette-page-cli-')), 'report.html');
  let stderr = '';
  const status = await runReportCommand([...args, '-o', out, ...(quiet ? ['-q'] : [])], {
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
    options: {
      metrics?: string[];
      bootstrap?: number;
      paired?: string;
      baseline?: string;
      human?: string[];
      humanScore?: string;
      humanItem?: string;
      shot?: string;
    } = {},
  ): Promise<{ status: string; error: string | null; messages: string[] }> {
    await page.goto(site.url);
    await page.waitForSelector('form[data-ready=yes]');
    await ((await page.$('#refs-files')) as ElementHandle).uploadFile(...refs);
    await ((await page.$('#hyps-files')) as ElementHandle).uploadFile(...systems);
    if (options.human !== undefined) await ((await page.$('#human-files')) as ElementHandle).uploadFile(...options.human);
    if (options.humanScore !== undefined) await page.type('#human-score', options.humanScore);
    if (options.humanItem !== undefined) await page.type('#human-item', options.humanItem);
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
    if (options.shot !== undefined) {
      await page.evaluate(() => document.getElementById('human-drop')!.scrollIntoView());
      await page.screenshot({ path: join(shots, options.shot) });
    }
    await page.focus('#score');
    await page.keyboard.press('Enter');
    await page.waitForFunction(
      () => /^(Done|Failed)/.test(document.getElementById('status')!.textContent ?? '') || !document.getElementById('error')!.hidden,
      { timeout: 120_000 },
    );
    return page.evaluate(() => ({
      status: document.getElementById('status')!.textContent ?? '',
      error: document.getElementById('error')!.hidden ? null : document.getElementById('error')!.textContent,
      messages: Array.from(document.querySelectorAll('#messages li') as ArrayLike<{ textContent: string }>, (li) => li.textContent),
    }));
  }

  /** The report the page made (its download link's content). */
  function pageReport(): Promise<string> {
    return page.evaluate(async () => (await fetch(document.getElementById('download')!.getAttribute('href')!)).text());
  }

  it("the sample's report equals palette report's byte for byte (BLEU, chrF, TER, ROUGE-L, intervals, paired bootstrap)", async () => {
    const got = await score([join(SAMPLE, 'ref.de')], SYSTEMS, { metrics: ['bleu', 'chrf', 'ter', 'rouge-l'], bootstrap: 200, paired: 'bs' });
    expect(got.error).toBeNull();
    // 300 segments are below the engine's MIN_POOL_WORK: scored in the page's worker alone, as palette score would.
    expect(got.status).toBe('Done: 3 systems scored on 1 thread.');
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

  it('human judgments added in the page give palette report --human, byte for byte: correlations, notes, errors', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'palette-page-human-'));
    // Made-up judgments for the sample's systems (what matters is that both sides read, align and correlate them
    // alike): segment-level scores of the first 60 segments with some unrated, a system the report lacks, and systems
    // named by stem; system-level scores in JSON, named by file name.
    let seed = 11;
    const rand = (): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const stems = SYSTEMS.map((f) => basename(f).replace(/[.]de$/, ''));
    const seg = ['system\tseg_id\tda'];
    for (const system of [...stems, 'human-ref']) {
      for (let i = 1; i <= 60; i++) seg.push(`${system}\t${i}\t${i % 13 === 0 ? '' : (rand() * 100).toFixed(1)}`);
    }
    const segFile = join(dir, 'da-seg.tsv');
    writeFileSync(segFile, seg.join('\n') + '\n');
    const sysFile = join(dir, 'da-sys.json');
    writeFileSync(sysFile, JSON.stringify(SYSTEMS.map((f, k) => ({ system: basename(f), z: [0.12, 0.31, -0.05][k] }))));
    const badFile = join(dir, 'bad.tsv');
    writeFileSync(badFile, 'system\tseg_id\tda\nonline-B.0\t1\t3\nonline-B.0\t2\tabc\n');
    try {
      const got = await score([join(SAMPLE, 'ref.de')], SYSTEMS, { bootstrap: 100, human: [segFile, sysFile], humanScore: 'da, z', shot: 'human-form.png' });
      expect(got.error).toBeNull();
      const cli = await cliReport(
        [join(SAMPLE, 'ref.de'), '-i', ...SYSTEMS, '--bootstrap', '100', '--seed', '12345', '--human', segFile, sysFile, '--human-score', 'da', 'z'],
        false,
      );
      expect(cli.status).toBe(0);
      const html = await pageReport();
      expect(html).toContain('<section id="human">');
      expect(html).toContain('id="correlation-table"');
      expect(html).toBe(cli.html);
      // The notes the CLI prints (what alignment left out) are listed in the page, the file named as it was given.
      const notes = cli.stderr.split('\n').filter((l) => l.startsWith('palette report: note: '));
      expect(notes).toHaveLength(1);
      expect(got.messages).toEqual(notes.map((l) => l.replace('palette report: ', '').replaceAll(`${dir}/`, '')));
      expect(got.messages[0]).toMatch(/^note: da-seg\.tsv: not in the report, left out: human-ref; 732 segment scores/);
      const frame = await (await page.$('#report'))!.contentFrame();
      await frame!.waitForSelector('html[data-rendered="ok"]', { timeout: 30_000 });
      await frame!.evaluate(() => document.getElementById('human')!.scrollIntoView());
      await page.evaluate(() => document.getElementById('report')!.scrollIntoView());
      await page.screenshot({ path: join(shots, 'human-report.png') });

      // One score column for both files (the JSON file has none of that name) and a bad score: the CLI's lines.
      const errors: string[] = [];
      for (const files of [[segFile, sysFile], [badFile]]) {
        const bad = await score([join(SAMPLE, 'ref.de')], SYSTEMS, { bootstrap: 0, human: files, humanScore: 'da' });
        const want = await cliReport([join(SAMPLE, 'ref.de'), '-i', ...SYSTEMS, '--bootstrap', '0', '--human', ...files, '--human-score', 'da']);
        expect(want.status).toBe(2);
        expect(bad.error).toBe(want.stderr.trim().replaceAll(`${dir}/`, ''));
        errors.push(bad.error!);
      }
      expect(errors[0]).toMatch(/^palette report: error: da-sys\.json:1: /);
      expect(errors[1]).toMatch(/^palette report: error: bad\.tsv:3: /);
      expect(pageErrors).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);

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
          // 200,000 (line, metric) units are above MIN_POOL_WORK: every thread the browser reports scores.
          const threads = (await page.evaluate('navigator.hardwareConcurrency')) as number;
          expect(s.status).toBe(`Done: 1 system scored on ${threads} thread${threads === 1 ? '' : 's'}.`);
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
