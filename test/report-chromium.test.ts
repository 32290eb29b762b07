/**
 * The report in a real browser: scripts/check-report.mjs runs headless Chromium on a report with every section
 * (scores with intervals, significance, human judgments with plots, drill-down) and must find the page rendered by
 * its script without errors; a report whose script was altered (so its Content-Security-Policy hash no longer
 * matches and the browser refuses to run it) must fail the check. Hostile hypotheses must not run either.
 *
 * Runs only where Chromium is installed (test/helpers/chromium.ts decides it); machines without it skip this file.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLines } from '../src/node/read-lines.js';
import { defaultRegistry } from '../src/metrics/registry.js';
import { buildReport } from '../src/report/build-report.js';
import { renderReportHtml } from '../src/report/render-html.js';
import { CHROMIUM, CHROMIUM_SKIP, HAVE_CHROMIUM } from './helpers/chromium.js';

const SAMPLE = 'samples/wmt17-en-de';
const PWN = `</script><script>document.documentElement.setAttribute('data-pwned','1')</script><img src=x onerror="document.documentElement.setAttribute('data-pwned','2')">`;

function check(file: string, ...extra: string[]): { status: number | null; stdout: string } {
  const r = spawnSync(process.execPath, ['scripts/check-report.mjs', file, '--chromium', CHROMIUM, ...extra], { encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, stdout: r.stdout + r.stderr };
}

/** A report with every section, built from the bundled sample (first 60 segments) and made-up judgments. */
function fullReport(): string {
  const refs = [readLines(`${SAMPLE}/ref.de`).slice(0, 60)];
  const systems = ['LIUM-NMT.4900.de', 'online-B.0.de', 'uedin-nmt.4722.de'].map((name) => ({
    name,
    lines: readLines(`${SAMPLE}/sys/${name}`).slice(0, 60),
  }));
  systems[0].lines[1] = PWN;
  const metrics = ['bleu', 'chrf'].map((id) => ({ id, metric: defaultRegistry.create(id, {}) }));
  // Made-up human scores and p-values: this file tests rendering, not the statistics.
  const human = {
    name: 'DA (made up)',
    system: [0.1, 0.3, 0.2],
    segment: systems.map((_, s) => refs[0].map((_, i) => ((i * 37 + s * 11) % 100) / 100)),
  };
  const data = buildReport({
    version: '0.1.0',
    references: refs,
    source: refs[0].map((_, i) => `source ${i + 1}`),
    systems,
    metrics,
    human: [human],
    intervals: {
      info: { level: 0.95, resamples: 0, seed: 0, method: 'made up' },
      compute: (stats) => stats.rows.map(() => ({ low: 1, high: 2 })),
    },
    significance: {
      info: { test: 'bs', resamples: 0, seed: 0, baseline: null },
      compute: (stats) => stats.rows.map((_, i) => stats.rows.map((__, j) => (i === j ? null : 0.04))),
    },
  });
  return renderReportHtml(data);
}

describe.skipIf(!HAVE_CHROMIUM)(`report in headless Chromium (${CHROMIUM_SKIP.replace('skipped: ', 'skipped without it: ')})`, () => {
  // Set up in hooks, so that a skipped suite leaves nothing behind.
  let dir = '';
  let html = '';
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'palette-report-chromium-'));
    html = fullReport();
  });
  afterAll(() => {
    if (dir !== '') rmSync(dir, { recursive: true, force: true });
  });

  it('renders every section, the plots and the drill-down, with no script error; injected markup does not run', () => {
    const file = join(dir, 'report.html');
    const dom = join(dir, 'dom.html');
    writeFileSync(file, html);
    const r = check(file, '--dump', dom);
    expect(r.stdout).toMatch(/check-report: all \d+ checks passed/);
    expect(r.status).toBe(0);
    const dumped = readFileSync(dom, 'utf8');
    expect(dumped).toMatch(/<html[^>]*data-rendered="ok"/);
    // The text is in the data and on the page, but never as markup: no attribute set, no element made.
    expect(dumped).not.toMatch(/<html[^>]*data-pwned/);
    expect(dumped).not.toMatch(/<img/);
    // The hostile line is shown as text in the drill-down.
    expect(dumped).toContain('&lt;/script&gt;&lt;script&gt;document.documentElement');
  });

  it('fails when the page script does not run (altered, so the CSP hash refuses it)', () => {
    const file = join(dir, 'altered.html');
    writeFileSync(file, html.replace("'use strict';", "'use strict'; "));
    const r = check(file);
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/FAIL initial: script ran \(data-rendered\) \(data-rendered=pending\)/);
  });
});
