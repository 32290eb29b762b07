/**
 * A one-line progress reporter for long CLI runs (`palette nbest`): items processed, rate and, when the fraction
 * done is known, an ETA. It writes to standard error only when that is a terminal and the run is not quiet, so
 * pipes, files and tests see nothing; the line is redrawn in place (`\r` + erase) at most every
 * {@link ProgressOptions.intervalMs}, so a fast loop pays one clock read per update and no string work.
 *
 * No timers: the line is redrawn from `update()` calls, so a stalled input shows a stalled line (honest) and the
 * process never waits on a pending interval to exit.
 */

/** What one progress line shows. */
export interface ProgressState {
  /** Items processed so far. */
  readonly count: number;
  /** Milliseconds since the start. */
  readonly elapsedMs: number;
  /** Fraction of the whole work done, in [0, 1], when the total is known. */
  readonly fraction?: number;
}

/** A sink that may be a terminal (Node's `process.stderr` has `isTTY`; test doubles and pipes do not). */
export interface ProgressStream {
  write(text: string): unknown;
  readonly isTTY?: boolean;
}

/** Options of {@link createProgress}. */
export interface ProgressOptions {
  /** Text before the figures, e.g. `palette nbest`. */
  readonly label: string;
  /** Plural name of the items, e.g. `hyps`. */
  readonly unit: string;
  /** Suppresses all output (the command's quiet flag). @default false */
  readonly quiet?: boolean;
  /** Shortest time between two redraws, in milliseconds. @default 100 */
  readonly intervalMs?: number;
  /**
   * Nothing is drawn before this many milliseconds have passed, so that a run shorter than that prints no line at
   * all (not even the final one). @default 0
   */
  readonly delayMs?: number;
  /** Clock in milliseconds (injected by tests). @default performance.now */
  readonly now?: () => number;
}

/** Reports progress; every method is a no-op when the reporter is disabled. */
export interface Progress {
  /** Whether anything is ever written (stderr is a TTY and the run is not quiet). */
  readonly enabled: boolean;
  /** Records `count` items done (and the fraction of the whole, if known); redraws when the interval has passed. */
  update(count: number, fraction?: number): void;
  /** Draws the final line and ends it with a newline (call once, on success). */
  done(): void;
  /** Erases the line without a summary (call on failure, before an error message). */
  clear(): void;
}

/** `1234567` → `1.23M`, `45600` → `45.6k`: short, fixed-width-ish counts for one terminal line. */
export function formatCount(n: number): string {
  if (!Number.isFinite(n)) return '?';
  const abs = Math.abs(n);
  if (abs >= 1e9) return `${(n / 1e9).toFixed(2)}G`;
  if (abs >= 1e6) return `${(n / 1e6).toFixed(2)}M`;
  if (abs >= 1e4) return `${(n / 1e3).toFixed(1)}k`;
  return String(Math.round(n));
}

/** Seconds as `m:ss` (or `h:mm:ss` past an hour); `--:--` when unknown. */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '--:--';
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/**
 * The text of one progress line (no `\r`, no newline): `label: COUNT unit  RATE unit/s[  PCT%  ETA m:ss]`.
 * Pure, so tests check it for given counts without a clock. The rate is omitted before any time has passed; the
 * ETA needs a fraction in (0, 1] and a positive elapsed time (remaining time = elapsed × (1 − f) / f).
 */
export function renderProgress(label: string, unit: string, state: ProgressState): string {
  const seconds = state.elapsedMs / 1000;
  let line = `${label}: ${formatCount(state.count)} ${unit}`;
  if (seconds > 0) line += `  ${formatCount(state.count / seconds)} ${unit}/s`;
  const f = state.fraction;
  if (f !== undefined && Number.isFinite(f)) {
    const clamped = Math.min(1, Math.max(0, f));
    line += `  ${(clamped * 100).toFixed(0)}%`;
    if (clamped > 0 && seconds > 0) line += `  ETA ${formatDuration((seconds * (1 - clamped)) / clamped)}`;
    else line += '  ETA --:--';
  }
  return line;
}

/** Escape sequence: carriage return, then erase to the end of the line. */
const REDRAW = '\r\x1b[K';

const DISABLED: Progress = { enabled: false, update: () => {}, done: () => {}, clear: () => {} };

/** A progress reporter on `stream`: live only when `stream.isTTY` is true and `quiet` is not set. */
export function createProgress(stream: ProgressStream, options: ProgressOptions): Progress {
  if (stream.isTTY !== true || options.quiet === true) return DISABLED;
  const now = options.now ?? (() => performance.now());
  const interval = options.intervalMs ?? 100;
  const delay = options.delayMs ?? 0;
  const start = now();
  let last = -Infinity;
  let count = 0;
  let fraction: number | undefined;
  let drawn = false;
  const draw = (t: number): void => {
    stream.write(REDRAW + renderProgress(options.label, options.unit, { count, elapsedMs: t - start, fraction }));
    drawn = true;
    last = t;
  };
  return {
    enabled: true,
    update(n: number, f?: number): void {
      count = n;
      fraction = f;
      const t = now();
      if (t - last >= interval && t - start >= delay) draw(t);
    },
    done(): void {
      // A run that ended before the delay drew nothing and leaves nothing.
      const t = now();
      if (!drawn && t - start < delay) return;
      draw(t);
      stream.write('\n');
      drawn = false;
    },
    clear(): void {
      if (drawn) stream.write(REDRAW);
      drawn = false;
    },
  };
}
