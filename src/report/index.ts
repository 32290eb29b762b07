/**
 * The HTML report: its data model, how it is computed from texts and metrics, and how it is rendered to one
 * self-contained file.
 */
export {
  REPORT_FORMAT,
  rankSystems,
  type ReportConfidence,
  type ReportCorrelation,
  type ReportCorrelationValue,
  type ReportData,
  type ReportHuman,
  type ReportInterval,
  type ReportMetric,
  type ReportScore,
  type ReportSegments,
  type ReportSignificance,
} from './report-data.js';
export {
  buildReport,
  type BuildReportOptions,
  type ReportMetricInput,
  type ReportStatistics,
  type ReportSystemInput,
} from './build-report.js';
export { renderReportHtml } from './render-html.js';
export { escapeHtml, jsonForScript } from './html-escape.js';
export { niceTicks, scatterSvg, type ScatterOptions } from './svg-scatter.js';
export { bootstrapIntervals, pairedSignificance, type PairedSignificanceOptions } from './report-statistics.js';
export { alignHumanTable, type AlignedHuman } from './report-human.js';
