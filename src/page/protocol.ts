/** The messages between the scoring page (./page.ts) and its report worker (./report-worker.ts). */

/** An input: a dropped or picked `File`, or pasted text; `name` is what messages and the report call it. */
export interface PageInput {
  readonly name: string;
  readonly input: unknown;
}

/** What the page asks: a report of these inputs with `palette report`'s flags (files not included). */
export interface ReportRequest {
  readonly type: 'run';
  readonly refs: readonly PageInput[];
  readonly systems: readonly PageInput[];
  readonly source?: PageInput;
  /** Human judgment files (`--human`), in order; their columns are among the flags (`--human-score` …). */
  readonly human?: readonly PageInput[];
  /** `palette report` flags: `-m …`, `--bootstrap N`, `--paired-bs`, metric flags. */
  readonly flags: readonly string[];
}

/** What the worker answers: progress, the report, or the CLI's error line. */
export type ReportReply =
  | { readonly type: 'progress'; readonly phase: 'read' | 'score' | 'report'; readonly done: number; readonly total: number }
  | { readonly type: 'done'; readonly html: string; readonly notes: readonly string[]; readonly warnings: readonly string[]; readonly threads: number }
  | { readonly type: 'error'; readonly message: string };
