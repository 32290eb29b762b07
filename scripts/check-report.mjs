#!/usr/bin/env node
/**
 * Checks that a `palette report` HTML file renders in headless Chromium (the Debian `chromium` package):
 *
 *   node scripts/check-report.mjs report.html [--screenshot out.png] [--dump dom.html] [--chromium /usr/bin/chromium]
 *
 * Chromium is started with a fresh profile, no network services and `--dump-dom`, once on the page as it opens and
 * once on the drill-down state of a URL fragment (`#segments:cmp=…&sort=diff-desc`), and the dumped DOM is read:
 * the page's script must have set `<html data-rendered="ok">` and left `#report-errors` empty, and the scores table,
 * the ranking, the significance matrices, the SVG plots (as many as the embedded data calls for) and the drill-down
 * rows must be there; in the second state, the rows must be in the requested order. Chromium's console log (stderr)
 * must show no blocked network access or Content-Security-Policy violation. With `--screenshot`, a PNG of the page is
 * written too (for a person to look at); with `--dump`, the DOM as rendered on opening.
 *
 * Prints one line per check; exit status 0 when all pass, 1 when one fails, 2 on bad usage (no file, no Chromium).
 * Kept free of dependencies (plain Node ≥ 20) so it runs from a clone without a build.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const USAGE = 'usage: node scripts/check-report.mjs REPORT.html [--screenshot OUT.png] [--dump DOM.html] [--chromium PATH]';

function parseCli(argv) {
  const opts = { file: undefined, screenshot: undefined, dump: undefined, chromium: '/usr/bin/chromium' };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--screenshot' || a === '--chromium' || a === '--dump') {
      if (i + 1 >= argv.length) throw new Error(`${a} needs a value`);
      opts[a.slice(2)] = argv[++i];
    } else if (a === '-h' || a === '--help') {
      console.log(USAGE);
      process.exit(0);
    } else if (opts.file === undefined) opts.file = a;
    else throw new Error(`unexpected argument ${JSON.stringify(a)}`);
  }
  if (opts.file === undefined) throw new Error('no report file given');
  return opts;
}

/** The flags every run gets: headless, sandbox-less (root in containers), and nothing that reaches the network. */
function baseFlags(profile) {
  return [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--disable-extensions',
    '--disable-default-apps',
    '--mute-audio',
    `--user-data-dir=${profile}`,
    '--enable-logging=stderr',
    '--v=0',
    '--virtual-time-budget=5000',
  ];
}

function chromium(binary, flags, url) {
  const profile = mkdtempSync(join(tmpdir(), 'palette-check-report-'));
  try {
    const r = spawnSync(binary, [...baseFlags(profile), ...flags, url], {
      encoding: 'utf8',
      maxBuffer: 512 * 1024 * 1024,
      timeout: 120_000,
    });
    if (r.error) throw r.error;
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
}

/** Decodes the few entities a DOM dump writes in text. */
function text(html) {
  return html
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&nbsp;/g, '\u00a0')
    .replace(/&amp;/g, '&');
}

function count(html, re) {
  return (html.match(re) ?? []).length;
}

const results = [];
function check(name, ok, detail = '') {
  results.push(ok);
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}${detail ? ` (${detail})` : ''}`);
}

/** Console lines of Chromium that mean the page tried something it must not (network, blocked script). */
function badConsole(stderr) {
  return stderr
    .split('\n')
    .filter((l) => /Content Security Policy|Refused to|net::ERR_|Uncaught|CONSOLE\(\d+\)\].*[Ee]rror/.test(l));
}

function checkPage(dom, stderr, data, label) {
  const html = /<html[^>]*>/.exec(dom)?.[0] ?? '';
  const rendered = /data-rendered="([^"]*)"/.exec(html)?.[1];
  check(`${label}: script ran (data-rendered)`, rendered === 'ok', `data-rendered=${rendered}`);
  const errors = /<pre id="report-errors"[^>]*>([\s\S]*?)<\/pre>/.exec(dom);
  check(`${label}: no script errors in #report-errors`, errors !== null && text(errors[1]).trim() === '', errors ? text(errors[1]).trim().slice(0, 300) : 'missing');
  const bad = badConsole(stderr);
  check(`${label}: no CSP, network or uncaught errors in the console`, bad.length === 0, bad.slice(0, 3).join(' | '));
  const systems = data.systems.length;
  const scoreRows = /<table class="sortable" id="scores-table">[\s\S]*?<tbody>([\s\S]*?)<\/tbody>/.exec(dom);
  check(`${label}: scores table with one row per system`, scoreRows !== null && count(scoreRows[1], /<tr/g) === systems, `${systems} systems`);
  check(`${label}: sortable headers`, count(dom, /<th[^>]*tabindex="0"/g) >= data.metrics.length + 1);
  check(`${label}: one ranking table per metric`, count(dom, /<table class="ranking"/g) === data.metrics.length);
  if (data.significance) {
    check(`${label}: one significance matrix per metric`, count(dom, /<table class="significance"/g) === data.metrics.length);
  }
  let plots = 0;
  for (const h of data.human ?? []) plots += data.metrics.length * (h.segment ? 2 : 1);
  check(`${label}: SVG scatter plots`, count(dom, /<svg class="scatter"/g) === plots, `${plots} expected`);
  const rows = [...dom.matchAll(/<tr data-segment="(\d+)">([\s\S]*?)<\/tr>/g)];
  const expectedRows = Math.min(25, data.segments.count);
  check(`${label}: drill-down rows`, rows.length === expectedRows, `${rows.length} of ${expectedRows}`);
  const judged = (data.human ?? []).filter((h) => h.segment);
  if (judged.length > 0) {
    const head = /<table class="segments" id="segment-table"><thead>([\s\S]*?)<\/thead>/.exec(dom);
    const heads = head === null ? '' : text(head[1]);
    check(`${label}: drill-down shows segment-level human scores`, judged.every((h) => heads.includes(`${h.name} A`)));
  }
  check(`${label}: drill-down controls`, ['dd-system', 'dd-compare', 'dd-metric', 'dd-sort', 'dd-filter'].every((id) => dom.includes(`id="${id}"`)));
  return rows;
}

function main() {
  let opts;
  try {
    opts = parseCli(process.argv.slice(2));
  } catch (err) {
    console.error(`check-report: error: ${err.message}\n${USAGE}`);
    return 2;
  }
  const file = resolve(opts.file);
  if (!existsSync(file)) {
    console.error(`check-report: error: ${opts.file}: no such file`);
    return 2;
  }
  if (!existsSync(opts.chromium)) {
    console.error(`check-report: error: ${opts.chromium}: Chromium not found (apt-get install chromium)`);
    return 2;
  }
  const source = readFileSync(file, 'utf8');
  const blob = /<script type="application\/json" id="report-data">([\s\S]*?)<\/script>/.exec(source);
  if (blob === null) {
    check('report data blob', false, 'no <script id="report-data">');
    return 1;
  }
  const data = JSON.parse(blob[1]);
  const url = pathToFileURL(file).href;

  const first = chromium(opts.chromium, ['--dump-dom'], url);
  check('chromium exited cleanly', first.status === 0, `status ${first.status}`);
  const before = results.length;
  checkPage(first.stdout, first.stderr, data, 'initial');
  if (opts.dump !== undefined) writeFileSync(resolve(opts.dump), first.stdout);
  const initialOk = results.slice(before).every((ok) => ok);

  // A second state is worth loading only when the page works at all.
  if (initialOk && data.systems.length > 1 && data.segments.count > 1) {
    // The drill-down state in the fragment: system 2 against system 1, largest difference first, second metric.
    const metric = data.metrics.length > 1 ? 1 : 0;
    const second = chromium(opts.chromium, ['--dump-dom'], `${url}#segments:sys=1&cmp=0&metric=${metric}&sort=diff-desc`);
    const rows = checkPage(second.stdout, second.stderr, data, 'fragment state');
    const diffs = rows.map((m) => {
      const i = Number(m[1]) - 1;
      const a = data.segments.scores[metric][1][i];
      const b = data.segments.scores[metric][0][i];
      return a === null || b === null ? -Infinity : a - b;
    });
    const sorted = diffs.every((d, k) => k === 0 || d <= diffs[k - 1]);
    check('fragment state: rows ordered by difference, largest first', sorted && rows.length > 0);
    let best = -Infinity;
    for (let i = 0; i < data.segments.count; i++) {
      const a = data.segments.scores[metric][1][i];
      const b = data.segments.scores[metric][0][i];
      if (a !== null && b !== null) best = Math.max(best, a - b);
    }
    check('fragment state: first row has the largest difference', diffs[0] === best, `${diffs[0]} vs ${best}`);
  }

  if (opts.screenshot !== undefined) {
    const shot = chromium(opts.chromium, [`--screenshot=${resolve(opts.screenshot)}`, '--window-size=1400,2200', '--hide-scrollbars'], url);
    check('screenshot written', shot.status === 0 && existsSync(resolve(opts.screenshot)), opts.screenshot);
  }
  const failed = results.filter((ok) => !ok).length;
  console.log(failed === 0 ? `check-report: all ${results.length} checks passed` : `check-report: ${failed} of ${results.length} checks failed`);
  return failed === 0 ? 0 : 1;
}

process.exitCode = main();
