/**
 * The style sheet of the HTML report, inlined in its `<style>` element: system fonts only (the page must look the
 * same offline, with no font to fetch), light colours that print well, and tables that stay readable at 16 systems.
 */

/** CSS of the report page. */
export const REPORT_CSS = `
:root { --fg: #1d2330; --muted: #5f6b7a; --line: #d9dee5; --bg: #ffffff; --alt: #f5f7fa; --accent: #2f6fb3;
  --good: #1f8a4c; --bad: #c0392b; --match: #d8f0dc; --miss: #fbe3e1; }
* { box-sizing: border-box; }
body { margin: 0; color: var(--fg); background: var(--bg);
  font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
header { padding: 18px 28px 10px; border-bottom: 1px solid var(--line); background: var(--alt); }
header h1 { margin: 0 0 6px; font-size: 22px; }
header dl { display: flex; flex-wrap: wrap; gap: 4px 22px; margin: 0; color: var(--muted); }
header dt { font-weight: 600; }
header dt::after { content: ":"; }
header dd { margin: 0 0 0 4px; }
header dl div { display: flex; }
nav { padding: 6px 28px; border-bottom: 1px solid var(--line); font-size: 13px; }
nav a { color: var(--accent); margin-right: 16px; text-decoration: none; }
main { padding: 4px 28px 40px; max-width: 1500px; }
section { margin-top: 22px; }
h2 { font-size: 18px; margin: 0 0 8px; padding-bottom: 4px; border-bottom: 2px solid var(--line); }
h3 { font-size: 15px; margin: 14px 0 6px; }
p.note { color: var(--muted); margin: 4px 0 8px; font-size: 13px; }
.table-wrap { overflow-x: auto; }
table { border-collapse: collapse; font-variant-numeric: tabular-nums; }
th, td { padding: 4px 10px; border-bottom: 1px solid var(--line); text-align: left; vertical-align: top; }
th { background: var(--alt); font-weight: 600; white-space: nowrap; }
td.num, th.num { text-align: right; white-space: nowrap; }
tbody tr:nth-child(even) { background: #fafbfc; }
table.sortable th { cursor: pointer; user-select: none; }
table.sortable th::after { content: " \\2195"; color: #b0b8c3; font-size: 11px; }
table.sortable th[aria-sort="ascending"]::after { content: " \\25B2"; color: var(--accent); }
table.sortable th[aria-sort="descending"]::after { content: " \\25BC"; color: var(--accent); }
.ci { color: var(--muted); font-size: 12px; }
.best { font-weight: 700; }
.sys { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12.5px; }
.rankings { display: flex; flex-wrap: wrap; gap: 18px; }
td.p-sig-better { background: #dff3e6; color: var(--good); font-weight: 600; }
td.p-sig-worse { background: #fbe6e4; color: var(--bad); font-weight: 600; }
td.p-none { color: #b0b8c3; }
table.significance.numbered td, table.significance.numbered th.num { padding: 4px 6px; }
.plots { display: flex; flex-wrap: wrap; gap: 14px; }
figure { margin: 0; border: 1px solid var(--line); border-radius: 4px; padding: 6px; background: #fff; }
figcaption { font-size: 12.5px; color: var(--muted); margin-bottom: 2px; }
svg.scatter { display: block; font-size: 10.5px; }
svg.scatter .plot-bg { fill: #fbfcfd; stroke: var(--line); }
svg.scatter .grid { stroke: #e9edf2; }
svg.scatter .tick { fill: var(--muted); }
svg.scatter .axis-label { fill: var(--fg); font-size: 11.5px; }
svg.scatter .fit { stroke: #e08a2c; stroke-width: 1.5; stroke-dasharray: 5 3; }
svg.scatter .points circle { fill: var(--accent); fill-opacity: 0.75; stroke: #fff; stroke-width: 0.8; }
svg.scatter .bins rect { fill: var(--accent); }
svg.scatter .point-label { fill: var(--fg); font-size: 10px; }
svg.scatter .n { fill: var(--muted); }
code.signature { font-size: 12px; background: var(--alt); padding: 1px 5px; border-radius: 3px; word-break: break-all; }
.controls { display: flex; flex-wrap: wrap; gap: 8px 16px; align-items: end; margin: 6px 0 10px; padding: 10px 12px;
  background: var(--alt); border: 1px solid var(--line); border-radius: 4px; }
.controls label { display: flex; flex-direction: column; font-size: 12px; color: var(--muted); gap: 2px; }
.controls select, .controls input { font: inherit; padding: 3px 6px; min-width: 130px; }
.pager { display: flex; gap: 10px; align-items: center; margin: 8px 0; color: var(--muted); }
.pager button { font: inherit; padding: 2px 10px; }
table.segments { width: 100%; }
table.segments td.texts { width: 100%; }
.seg-line { display: grid; grid-template-columns: 44px 1fr; gap: 6px; margin: 1px 0; }
.seg-line .tag { color: var(--muted); font-size: 11.5px; padding-top: 1px; }
.seg-line .txt { white-space: pre-wrap; word-break: break-word; }
.seg-line.hyp .txt { font-weight: 500; }
span.m { background: var(--match); border-radius: 2px; }
.delta-pos { color: var(--good); }
.delta-neg { color: var(--bad); }
#report-errors { color: var(--bad); background: var(--miss); padding: 8px; white-space: pre-wrap; }
.empty { color: var(--muted); font-style: italic; }
`;
