/**
 * The HTML renderer without a browser: page structure, escaping of every text that comes from user files (a
 * hypothesis must never inject markup or script), the JSON blob round trip, the Content-Security-Policy hash of the
 * inline script, and byte-identical output for the same data.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { escapeHtml, jsonForScript } from '../src/report/html-escape.js';
import { REPORT_FORMAT, rankSystems, type ReportData } from '../src/report/report-data.js';
import { renderReportHtml } from '../src/report/render-html.js';

const EVIL = '</script><script>alert(1)</script><img src=x onerror="alert(2)"> & \u2028 <!-- \'"';

/** A small report with every optional part, and hostile text in every text field. */
function sample(evil = EVIL): ReportData {
  return {
    format: REPORT_FORMAT,
    title: `Title ${evil}`,
    version: '0.1.0',
    systems: [`sys-a ${evil}`, 'sys-b', 'sys-c'],
    metrics: [
      { id: 'bleu', name: 'BLEU', signature: `nrefs:1|tok:13a ${evil}`, higherIsBetter: true, decimals: 2 },
      { id: 'ter', name: 'TER', signature: 'nrefs:1|case:lc', higherIsBetter: false, decimals: 2 },
    ],
    scores: [
      [
        { score: 30.5, verbose: `v ${evil}`, ci: { low: 29.1, high: 31.9 } },
        { score: 28.25, verbose: '', ci: { low: 27, high: 29.5 } },
        { score: 31, verbose: '', ci: { low: 30, high: 32 } },
      ],
      [
        { score: 55, verbose: '' },
        { score: 57.5, verbose: '' },
        { score: 54, verbose: '' },
      ],
    ],
    ranking: [
      [2, 0, 1],
      [2, 0, 1],
    ],
    confidence: { level: 0.95, resamples: 1000, seed: 12345, method: 'bootstrap over segments' },
    significance: {
      test: 'bs',
      resamples: 1000,
      seed: 12345,
      baseline: 0,
      pValues: [
        [
          [null, 0.001, 0.3],
          [null, null, null],
          [null, null, null],
        ],
        [
          [null, 0.02, 0.5],
          [null, null, null],
          [null, null, null],
        ],
      ],
    },
    human: [
      {
        name: `DA ${evil}`,
        system: [0.1, -0.2, 0.3],
        segment: [
          [0.5, 0.1],
          [0.2, null],
          [0.9, 0.4],
        ],
      },
    ],
    correlations: [
      {
        metric: 0,
        human: 0,
        level: 'system',
        n: 3,
        segments: 2,
        x: [30.5, 28.25, 31],
        y: [0.1, -0.2, 0.3],
        pearson: { value: 0.9, ci: { low: 0.5, high: 1 } },
        spearman: { value: 1 },
        kendall: { value: null },
      },
    ],
    segments: {
      count: 2,
      source: [`source ${evil}`, 'second source'],
      references: [[`ref ${evil}`, 'the cat sat']],
      hypotheses: [
        [`hyp ${evil}`, 'the cat sat'],
        ['a', 'b'],
        ['c', 'd'],
      ],
      scores: [
        [
          [10, 100],
          [5, null],
          [7, 8],
        ],
        [
          [50, 0],
          [60, 100],
          [70, 80],
        ],
      ],
    },
  };
}

/** The content of the `<script type="application/json">` element. */
function blobOf(html: string): string {
  const m = /<script type="application\/json" id="report-data">([\s\S]*?)<\/script>/.exec(html);
  expect(m).not.toBeNull();
  return m![1];
}

describe('escapeHtml and jsonForScript', () => {
  it('escape the five HTML-special characters', () => {
    expect(escapeHtml(`<a href="x" title='y'>&amp;</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;');
  });

  it('JSON for a script element holds no <, > or & and no raw U+2028/2029, and parses back to the value', () => {
    const value = { s: EVIL, t: ['\u2029', '<!--', '-->'], n: [1.5, -0, 1e-300] };
    const json = jsonForScript(value);
    expect(json).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(json)).toEqual(JSON.parse(JSON.stringify(value)));
  });
});

describe('renderReportHtml', () => {
  const data = sample();
  const html = renderReportHtml(data);

  it('is one self-contained document: no external URL, no link or src attribute, inline style and script', () => {
    expect(html.startsWith('<!DOCTYPE html>\n')).toBe(true);
    expect(html).not.toMatch(/\b(?:href|src)\s*=\s*"(?:https?:|\/\/)/i);
    expect(html).not.toMatch(/<link\b|@import|url\(/i);
    // Two script elements: the JSON data and the page's own script.
    expect(html.match(/<script\b/g)).toHaveLength(2);
    expect(html).toMatch(/<style>[\s\S]+<\/style>/);
  });

  it('puts the SHA-256 of its one inline script in the Content-Security-Policy, and allows no network source', () => {
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html)![1];
    const script = /<script>([\s\S]*?)<\/script>/.exec(html)![1];
    const hash = createHash('sha256').update(script, 'utf8').digest('base64');
    expect(csp).toContain(`script-src 'sha256-${hash}'`);
    expect(csp).toMatch(/^default-src 'none';/);
    expect(csp).not.toMatch(/unsafe-eval|https?:|\*/);
  });

  it('never lets hostile text out of its escaping: no injected tag, attribute or comment anywhere', () => {
    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain('<img');
    expect(html).not.toContain('onerror="');
    expect(html).not.toContain('<!--');
    // Outside the JSON blob, the text appears only escaped.
    const outside = html.replace(blobOf(html), '');
    expect(outside).toContain('&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(outside).toContain('Title &lt;/script&gt;');
    expect(outside).toContain('DA &lt;/script&gt;');
    // The blob cannot close its element: it holds no '<' at all.
    expect(blobOf(html)).not.toContain('<');
  });

  it('embeds the data as one JSON blob that parses back to the same value', () => {
    expect(JSON.parse(blobOf(html))).toEqual(data);
  });

  it('renders the same bytes for the same data, and different bytes for a different creation time', () => {
    expect(renderReportHtml(sample())).toBe(html);
    const dated = renderReportHtml({ ...sample(), created: '2026-11-22 10:00' });
    expect(dated).not.toBe(html);
    expect(dated).toContain('2026-11-22 10:00');
  });

  it('has the sections, one scores row per system, a ranking table per metric and a significance matrix per metric', () => {
    for (const id of ['scores', 'ranking', 'significance', 'human', 'segments', 'signatures']) {
      expect(html).toContain(`<section id="${id}">`);
    }
    const body = /<table class="sortable" id="scores-table">[\s\S]*?<tbody>([\s\S]*?)<\/tbody>/.exec(html)![1];
    expect(body.match(/<tr>/g)).toHaveLength(3);
    expect(html.match(/<table class="ranking"/g)).toHaveLength(2);
    expect(html.match(/<table class="significance"/g)).toHaveLength(2);
    expect(html).toContain('<div id="segment-view">');
  });

  it('shows intervals, marks the best system per metric, and colours significant p-values by direction', () => {
    expect(html).toContain('30.50 <span class="ci">[29.10, 31.90]</span>');
    // sys-c is best under both metrics (highest BLEU, lowest TER).
    const rows = /id="scores-table">[\s\S]*?<tbody>([\s\S]*?)<\/tbody>/.exec(html)![1].split('</tr>');
    expect(rows[2]).toMatch(/<td class="num best" data-v="31"/);
    expect(rows[2]).toMatch(/<td class="num best" data-v="54"/);
    // BLEU: sys-b (28.25) vs baseline sys-a (30.5), p = 0.001 → significantly worse; sys-c p = 0.3 → not marked.
    expect(html).toMatch(/<td class="num p-sig-worse" data-v="0.001"[^>]*>0.0010<\/td>/);
    expect(html).toMatch(/<td class="num" data-v="0.3"[^>]*>0.3000<\/td>/);
    // TER: sys-b has more errors than the baseline (57.5 > 55), p = 0.02 → worse.
    expect(html).toMatch(/<td class="num p-sig-worse" data-v="0.02"/);
  });

  it('draws a system-level and a segment-level plot per metric and human score set', () => {
    expect(html.match(/<figure class="plot" data-level="system"/g)).toHaveLength(2);
    expect(html.match(/<figure class="plot" data-level="segment"/g)).toHaveLength(2);
    expect(html.match(/<svg class="scatter"/g)).toHaveLength(4);
  });

  it('labels every segment-level point on hover with its system and segment', () => {
    const segment = html.slice(html.indexOf('data-level="segment"'));
    expect(segment).toMatch(/<circle [^>]*><title>sys-b, segment 1: /);
    expect(segment).toMatch(/<circle [^>]*><title>sys-c, segment 2: /);
  });

  it('numbers the columns of an all-pairs matrix of more than four systems, names in tooltips and row heads', () => {
    const base = sample('x');
    const n = 6;
    const systems = Array.from({ length: n }, (_, i) => `system-${i}`);
    const matrix = systems.map((_, i) => systems.map((__, j) => (i === j ? null : 0.5)));
    const data: ReportData = {
      ...base,
      systems,
      scores: base.scores.map((row) => systems.map((_, i) => row[i % row.length])),
      ranking: base.ranking.map(() => systems.map((_, i) => i)),
      significance: { ...base.significance!, baseline: null, pValues: [matrix, matrix] },
      human: undefined,
      correlations: undefined,
      segments: { ...base.segments, hypotheses: systems.map(() => ['a', 'b']), scores: base.segments.scores.map(() => systems.map(() => [1, 2])) },
    };
    delete (data as { human?: unknown }).human;
    delete (data as { correlations?: unknown }).correlations;
    const all = renderReportHtml(data);
    const at = all.indexOf('<table class="significance');
    const table = all.slice(at, all.indexOf('</table>', at));
    expect(table).toContain('<th class="num sys" title="system-0" scope="col">1</th>');
    expect(table).toContain('<th class="num sys" title="system-5" scope="col">6</th>');
    expect(table).toContain('<th class="sys">6. system-5</th>');
    expect(table).toMatch(/^<table class="significance numbered"/);
    expect(table.match(/<tr>/g)).toHaveLength(n + 1);
    // Against one baseline, or with few systems, the columns keep their names.
    expect(html).toContain('<th class="num sys">sys-b</th>');
  });

  it('leaves out the optional sections when their data are absent', () => {
    const { significance: _s, human: _h, correlations: _c, confidence: _k, ...rest } = sample('x');
    const plain = renderReportHtml({ ...rest, scores: rest.scores.map((row) => row.map(({ score, verbose }) => ({ score, verbose }))) });
    expect(plain).not.toContain('<section id="significance">');
    expect(plain).not.toContain('<section id="human">');
    expect(plain).not.toContain('class="ci"');
    expect(plain).not.toContain('<svg');
  });
});

describe('rankSystems', () => {
  const scores = [30, 31, 30, Number.NaN, 29].map((score) => ({ score, verbose: '' }));

  it('orders best first (higher or lower), equal scores in the given order, NaN last', () => {
    expect(rankSystems(scores, true)).toEqual([1, 0, 2, 4, 3]);
    expect(rankSystems(scores, false)).toEqual([4, 0, 2, 1, 3]);
  });
});
