/**
 * Renders {@link ReportData} as one self-contained HTML file: inline CSS, inline SVG plots, the data as one JSON blob
 * (`<script type="application/json" id="report-data">`) and an inline script that adds sorting and the per-segment
 * drill-down. Nothing is fetched: a Content-Security-Policy allows no network source at all and only the page's own
 * script (by its SHA-256), so the file works from `file://` offline and an injected `<script>` could not run even
 * if escaping failed. The summary tables and plots are rendered here, so they show without script too.
 *
 * The output depends only on the data: no clock, no random ids, fixed number formats.
 */
import { escapeHtml, jsonForScript } from './html-escape.js';
import type { ReportCorrelationValue, ReportData, ReportInterval } from './report-data.js';
import { REPORT_SCRIPT } from './report-script.js';
import { REPORT_CSS } from './report-style.js';
import { scatterSvg } from './svg-scatter.js';
import { sha256Utf8, toBase64 } from '../util/sha256.js';

/** p-values below this are marked significant in the matrix. */
const ALPHA = 0.05;

/** A fixed-decimals number, `–` for null or non-finite. */
function fixed(v: number | null | undefined, decimals: number): string {
  return v === null || v === undefined || !Number.isFinite(v) ? '–' : v.toFixed(decimals);
}

/** `data-v` attribute value for sorting (empty for missing numbers). */
function dataV(v: number | null | undefined): string {
  return v === null || v === undefined || !Number.isFinite(v) ? '' : String(v);
}

function interval(ci: ReportInterval | undefined, decimals: number): string {
  return ci === undefined ? '' : ` <span class="ci">[${fixed(ci.low, decimals)}, ${fixed(ci.high, decimals)}]</span>`;
}

function header(data: ReportData): string {
  const facts: [string, string][] = [
    ['systems', String(data.systems.length)],
    ['segments', String(data.segments.count)],
    ['references', String(data.segments.references.length)],
    ['metrics', data.metrics.map((m) => m.name).join(', ')],
  ];
  if (data.confidence !== undefined) {
    const c = data.confidence;
    facts.push(['intervals', `${Math.round(c.level * 100)}% ${c.method}, ${c.resamples} resamples, seed ${c.seed}`]);
  }
  facts.push(['palette', data.version]);
  if (data.created !== undefined) facts.push(['created', data.created]);
  const dl = facts.map(([k, v]) => `<div><dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd></div>`).join('');
  return `<header><h1>${escapeHtml(data.title)}</h1><dl>${dl}</dl></header>`;
}

function nav(data: ReportData): string {
  const links: [string, string][] = [
    ['scores', 'Scores'],
    ['ranking', 'Ranking'],
  ];
  if (data.significance !== undefined) links.push(['significance', 'Significance']);
  if (data.human !== undefined && data.human.length > 0) links.push(['human', 'Human judgments']);
  links.push(['segments', 'Segments'], ['signatures', 'Signatures']);
  return `<nav>${links.map(([id, label]) => `<a href="#${id}">${label}</a>`).join('')}</nav>`;
}

function scoresSection(data: ReportData): string {
  const heads = data.metrics
    .map((m) => `<th class="num" title="${escapeHtml(m.signature)}">${escapeHtml(m.name)}${m.higherIsBetter ? '' : ' ↓'}</th>`)
    .join('');
  const humanHeads = (data.human ?? []).map((h) => `<th class="num">${escapeHtml(h.name)}</th>`).join('');
  const rows = data.systems
    .map((system, s) => {
      const cells = data.metrics
        .map((m, k) => {
          const sc = data.scores[k][s];
          const best = data.ranking[k][0] === s ? ' best' : '';
          return `<td class="num${best}" data-v="${dataV(sc.score)}" title="${escapeHtml(sc.verbose)}">` +
            `${fixed(sc.score, m.decimals)}${interval(sc.ci, m.decimals)}</td>`;
        })
        .join('');
      const human = (data.human ?? []).map((h) => `<td class="num" data-v="${dataV(h.system[s])}">${fixed(h.system[s], 4)}</td>`).join('');
      return `<tr><td class="sys">${escapeHtml(system)}</td>${cells}${human}</tr>`;
    })
    .join('');
  const ciNote = data.confidence === undefined
    ? ''
    : ` Brackets: ${Math.round(data.confidence.level * 100)}% confidence interval (${escapeHtml(data.confidence.method)}).`;
  return (
    '<section id="scores"><h2>Corpus scores</h2>' +
    `<p class="note">Click a column to sort. ↓ marks metrics where lower is better; bold is the best system.${ciNote}</p>` +
    `<div class="table-wrap"><table class="sortable" id="scores-table"><thead><tr><th>System</th>${heads}${humanHeads}</tr>` +
    `</thead><tbody>${rows}</tbody></table></div></section>`
  );
}

function rankingSection(data: ReportData): string {
  const tables = data.metrics
    .map((m, k) => {
      const rows = data.ranking[k]
        .map((s, r) => {
          const sc = data.scores[k][s];
          return `<tr><td class="num">${r + 1}</td><td class="sys">${escapeHtml(data.systems[s])}</td>` +
            `<td class="num" data-v="${dataV(sc.score)}">${fixed(sc.score, m.decimals)}</td></tr>`;
        })
        .join('');
      return `<div class="table-wrap"><table class="ranking" data-metric="${escapeHtml(m.id)}"><thead><tr><th class="num">#</th>` +
        `<th>${escapeHtml(m.name)}</th><th class="num">score</th></tr></thead><tbody>${rows}</tbody></table></div>`;
    })
    .join('');
  return `<section id="ranking"><h2>Ranking per metric</h2><div class="rankings">${tables}</div></section>`;
}

function significanceSection(data: ReportData): string {
  const sig = data.significance;
  if (sig === undefined) return '';
  const test = sig.test === 'bs' ? 'paired bootstrap resampling' : 'paired approximate randomization';
  const rowsOf = sig.baseline === null ? data.systems.map((_, i) => i) : [sig.baseline];
  const tables = data.metrics
    .map((m, k) => {
      // Every pair: columns are numbered (the name in a tooltip, the number beside each row's name), so that a
      // matrix of many systems fits the page instead of scrolling sideways.
      const numbered = sig.baseline === null && data.systems.length > 4;
      const head = data.systems
        .map((s, j) => (numbered ? `<th class="num sys" title="${escapeHtml(s)}" scope="col">${j + 1}</th>` : `<th class="num sys">${escapeHtml(s)}</th>`))
        .join('');
      const body = rowsOf
        .map((i) => {
          const cells = data.systems
            .map((_, j) => {
              const p = sig.pValues[k][i][j];
              if (p === null || i === j) return '<td class="num p-none">–</td>';
              const diff = data.scores[k][j].score - data.scores[k][i].score;
              const better = (diff > 0) === m.higherIsBetter;
              const cls = p < ALPHA ? (better ? ' p-sig-better' : ' p-sig-worse') : '';
              const tip = `${data.systems[j]} vs ${data.systems[i]}: Δ = ${diff >= 0 ? '+' : ''}${fixed(diff, m.decimals)}, p = ${fixed(p, 4)}`;
              return `<td class="num${cls}" data-v="${dataV(p)}" title="${escapeHtml(tip)}">${fixed(p, 4)}</td>`;
            })
            .join('');
          return `<tr><th class="sys">${numbered ? `${i + 1}. ` : ''}${escapeHtml(data.systems[i])}</th>${cells}</tr>`;
        })
        .join('');
      return `<h3>${escapeHtml(m.name)}</h3><div class="table-wrap"><table class="significance${numbered ? ' numbered' : ''}" data-metric="${escapeHtml(m.id)}">` +
        `<thead><tr><th>baseline \\ system</th>${head}</tr></thead><tbody>${body}</tbody></table></div>`;
    })
    .join('');
  const scope = sig.baseline === null ? 'every pair of systems' : `every system against the baseline ${data.systems[sig.baseline]}`;
  return (
    '<section id="significance"><h2>Pairwise significance</h2>' +
    `<p class="note">${escapeHtml(`p-values of ${test} (${sig.resamples} samples, seed ${sig.seed}), ${scope}. `)}` +
    `Green: the column's system is significantly better than the row's (p &lt; ${ALPHA}); red: significantly worse.</p>` +
    `${tables}</section>`
  );
}

function correlationCell(c: ReportCorrelationValue): string {
  return `<td class="num" data-v="${dataV(c.value)}">${fixed(c.value, 4)}${interval(c.ci, 3)}</td>`;
}

function humanSection(data: ReportData): string {
  const human = data.human ?? [];
  if (human.length === 0) return '';
  const correlations = data.correlations ?? [];
  const rows = correlations
    .map(
      (c) =>
        `<tr><td>${escapeHtml(data.metrics[c.metric].name)}</td><td>${escapeHtml(human[c.human].name)}</td><td>${c.level}</td>` +
        `<td class="num" data-v="${c.n}">${c.n}</td><td class="num" data-v="${c.segments}">${c.segments}</td>${correlationCell(c.pearson)}${correlationCell(c.spearman)}` +
        `${correlationCell(c.kendall)}</tr>`,
    )
    .join('');
  const notes = human
    .filter((h) => h.note !== undefined)
    .map((h) => `<p class="note">${escapeHtml(`${h.name}: ${h.note}`)}</p>`)
    .join('');
  const table = correlations.length === 0
    ? '<p class="note">No correlations computed.</p>'
    : '<div class="table-wrap"><table class="sortable" id="correlation-table"><thead><tr><th>Metric</th><th>Human</th>' +
      '<th>Level</th><th class="num">n</th><th class="num">segments</th><th class="num">Pearson r</th><th class="num">Spearman ρ</th>' +
      `<th class="num">Kendall τ<sub>b</sub></th></tr></thead><tbody>${rows}</tbody></table></div>`;
  const plots: string[] = [];
  human.forEach((h, hi) => {
    data.metrics.forEach((m, k) => {
      // The points correlated (the metric over the judged segments), or the corpus scores when not given.
      const c = correlations.find((x) => x.metric === k && x.human === hi && x.level === 'system');
      const xs = c?.x ?? data.scores[k].map((sc) => sc.score);
      const ys = c?.y ?? h.system;
      const over = c === undefined || c.segments === data.segments.count ? '' : `, ${m.name} over the ${c.segments} judged segments`;
      plots.push(
        figure(`${m.name} vs ${h.name}, system level${over}`, 'system', scatterSvg(xs, ys, {
          xLabel: m.name,
          yLabel: h.name,
          labels: data.systems,
          showLabels: data.systems.length <= 8,
        }), k, hi),
      );
      if (h.segment !== undefined) {
        const segXs: (number | null)[] = [];
        const segYs: (number | null)[] = [];
        const segLabels: string[] = [];
        data.systems.forEach((name, s) => {
          for (let i = 0; i < data.segments.count; i++) {
            segXs.push(data.segments.scores[k][s][i]);
            segYs.push(h.segment![s][i]);
            segLabels.push(`${name}, segment ${i + 1}`);
          }
        });
        // Each point says on hover whose segment it is.
        const svg = scatterSvg(segXs, segYs, { xLabel: m.name, yLabel: h.name, labels: segLabels });
        plots.push(figure(`${m.name} vs ${h.name}, segment level`, 'segment', svg, k, hi));
      }
    });
  });
  return (
    '<section id="human"><h2>Metrics vs human judgments</h2>' +
    '<p class="note">Correlation coefficients with their confidence intervals in brackets; with segment-level judgments, ' +
    'system scores of both sides come from the judged segments only. Plots: one point per system ' +
    '(system level) or per segment of every system, binned when there are many (segment level); dashed: least-squares line.</p>' +
    `${notes}${table}<div class="plots">${plots.join('')}</div></section>`
  );
}

function figure(caption: string, level: string, svg: string, metric: number, human: number): string {
  return `<figure class="plot" data-level="${level}" data-metric="${metric}" data-human="${human}">` +
    `<figcaption>${escapeHtml(caption)}</figcaption>${svg}</figure>`;
}

function segmentsSection(): string {
  return (
    '<section id="segments"><h2>Segments</h2>' +
    '<p class="note">Pick a system, optionally a second one to compare with, and order segments by score or by the ' +
    'difference between the two.</p>' +
    '<div id="segment-view"><noscript><p class="empty">The drill-down needs JavaScript.</p></noscript></div></section>'
  );
}

function signaturesSection(data: ReportData): string {
  const items = data.metrics
    .map((m) => `<li><b>${escapeHtml(m.name)}</b>: <code class="signature">${escapeHtml(m.signature)}</code></li>`)
    .join('');
  return `<section id="signatures"><h2>Signatures</h2><ul>${items}</ul></section>`;
}

/** `'sha256-…'` source expression of a script, for the Content-Security-Policy. */
function scriptHash(script: string): string {
  return `'sha256-${toBase64(sha256Utf8(script))}'`;
}

/**
 * The report as one HTML document (a string; write it as UTF-8). The same data gives the same bytes.
 */
export function renderReportHtml(data: ReportData): string {
  const csp = `default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src ${scriptHash(REPORT_SCRIPT)}`;
  return (
    '<!DOCTYPE html>\n' +
    '<html lang="en" data-rendered="pending">\n<head>\n<meta charset="utf-8">\n' +
    `<meta http-equiv="Content-Security-Policy" content="${csp}">\n` +
    '<meta name="viewport" content="width=device-width, initial-scale=1">\n' +
    `<meta name="generator" content="palette ${escapeHtml(data.version)}">\n` +
    `<title>${escapeHtml(data.title)}</title>\n<style>${REPORT_CSS}</style>\n</head>\n<body>\n` +
    `${header(data)}\n${nav(data)}\n<main>\n` +
    '<pre id="report-errors" hidden></pre>\n' +
    `${scoresSection(data)}\n${rankingSection(data)}\n${significanceSection(data)}\n${humanSection(data)}\n` +
    `${segmentsSection()}\n${signaturesSection(data)}\n</main>\n` +
    `<script type="application/json" id="report-data">${jsonForScript(data)}</script>\n` +
    `<script>${REPORT_SCRIPT}</script>\n</body>\n</html>\n`
  );
}
