/**
 * A `palette rouge155` run, as ROUGE-1.5.5's main loop: read the configuration, score every evaluation unit of every
 * peer, then per peer and statistic the bootstrap averages (or `-t 2` totals) and, with `-d`, the units.
 *
 * Unlike the Perl, which re-reads every file for every statistic, each unit is scored once for all statistics, and
 * each file is read once. A peer missing from a unit is a warning (`*ROUGE Warning: test instance for peer P does
 * not exist for evaluation E`, on stderr, as ROUGE) and the unit is left out of that peer's averages.
 *
 * An empty summary (no sentence in its format: an empty file, blank lines, a SEE file without `<a>` sentences) scores
 * as ROUGE-1.5.5 scores it — zero counts, hence 0 — with a warning naming the file, since a summary in the wrong
 * format reads as empty too. Where ROUGE-1.5.5 dies instead (a model without tokens under `-w`: "Illegal division by
 * zero"), the type scores 0 for that model and a warning names the model file. What ROUGE would die on otherwise,
 * and what it would silently get wrong — a missing or unreadable file, invalid UTF-8, a unit with no model, a
 * configuration with no unit — is an `InputError` naming the file.
 */
import { InputError } from '../../errors.js';
import {
  modelPaths,
  peerPath,
  readEvalConfig,
  type Rouge155Config,
  type Rouge155Eval,
} from '../../corpus/rouge/eval-config.js';
import { readFileList } from '../../corpus/rouge/file-list.js';
import { decodeLines } from '../../corpus/read-lines.js';
import { readInputBytes, SummaryFiles } from '../../node/rouge155-files.js';
import { parseRouge155Format, type Rouge155Format } from '../../corpus/rouge/summary-format.js';
import { decodeXml, parseXml } from '../../corpus/rouge/xml.js';
import {
  perlStringCompare,
  rouge155Bootstrap,
  rouge155Totals,
  rouge155UnitOrder,
} from '../../meta/rouge155-bootstrap.js';
import type { Rouge155TypeCounts, Rouge155UnitOptions } from '../../metrics/rouge155/unit.js';
import type { Rouge155Options } from './options.js';
import { formatAverages, formatCounts, formatPerUnit } from './print.js';
import { rouge155TypeNames, rouge155UnitOptions } from './rouge-types.js';

/** Computes one unit: src/metrics/rouge155/unit.ts's `rouge155Unit`, or a stand-in in tests. */
export type Rouge155UnitScorer = (
  peerSentences: readonly string[],
  models: readonly (readonly string[])[],
  options: Rouge155UnitOptions,
  warnings: string[],
) => Rouge155TypeCounts[];

/** Where a run reads from and reports to. */
export interface Rouge155RunEnv {
  /** The directory relative paths start from (ROUGE opens every path relative to its working directory). */
  readonly cwd: string;
  /** Receives each warning line (with its `\n`). */
  readonly warn: (line: string) => void;
  /** Computes per-unit numbers. */
  readonly scorer: Rouge155UnitScorer;
}

/** Reads the configuration the options name: an XML file, or a `-z` file list. */
export function loadRouge155Config(options: Rouge155Options, cwd: string): Rouge155Config {
  const file = options.config;
  if (options.fileListFormat !== undefined) {
    const lines = decodeLines(readInputBytes(file, cwd, 'file list'), file, { allowEmpty: true });
    return readFileList(lines, options.fileListFormat, options.systemId ?? 'X', file);
  }
  const bytes = readInputBytes(file, cwd, 'configuration file');
  return readEvalConfig(parseXml(decodeXml(bytes, file), file), file);
}

const FORMAT_HINT: Readonly<Record<Rouge155Format, string>> = {
  SEE: 'SEE format wants lines like <a name="1">[1]</a> <a href="#1" id=1>sentence',
  SPL: 'SPL format wants one sentence per line',
  ISI: 'ISI format wants lines like <S SNTNO="1">sentence</S>',
  SIMPLE: 'SIMPLE format wants one HEAD|MODIFIER|RELATION triple per line',
};

/** Scores the units of a run, reading each file once. */
class UnitReader {
  private readonly files: SummaryFiles;
  private readonly unitOptions: Rouge155UnitOptions;
  private readonly basicElements: boolean;
  /** Warning lines already printed: each is said once per run, not once per peer. */
  private readonly warned = new Set<string>();

  constructor(
    private readonly config: Rouge155Config,
    private readonly options: Rouge155Options,
    private readonly names: readonly string[],
    private readonly env: Rouge155RunEnv,
  ) {
    this.files = new SummaryFiles(env.cwd);
    this.unitOptions = rouge155UnitOptions(options);
    this.basicElements = options.basicElements !== undefined;
  }

  private fail(unit: Rouge155Eval, message: string): never {
    throw new InputError('E_BAD_INPUT', `evaluation ${JSON.stringify(unit.id)}: ${message}`, {
      file: this.options.config,
    });
  }

  /**
   * The unit's format. ROUGE reads text (ROUGE-N/L/W/S) from SEE, SPL and ISI files and Basic Elements (`-3`) from
   * SIMPLE files only (its ISI BE reader is an empty placeholder); with `-3` it reads BEs only, since every other
   * type needs text, which a SIMPLE file cannot give.
   */
  private format(unit: Rouge155Eval): Rouge155Format {
    const format = unit.format === undefined ? undefined : parseRouge155Format(unit.format);
    const given = unit.format === undefined ? 'no INPUT-FORMAT' : `input format ${JSON.stringify(unit.format)}`;
    if (this.basicElements) {
      if (format !== 'SIMPLE') this.fail(unit, `${given}: -3 (Basic Elements) reads only SIMPLE files`);
      if (this.names.length > 1)
        this.fail(unit, '-3 (Basic Elements) reads SIMPLE files, which -n, -w and -2 cannot read');
      return format;
    }
    if (format === undefined || format === 'SIMPLE')
      this.fail(unit, `${given}: ROUGE-N/L/W/S read only SEE, SPL and ISI files`);
    return format;
  }

  /** Prints a warning line once per run. */
  private warnOnce(line: string): void {
    if (this.warned.has(line)) return;
    this.warned.add(line);
    this.env.warn(line);
  }

  /** A summary's sentences (or BE lines); none (with a warning) for an empty summary, which ROUGE scores 0. */
  private read(path: string, format: Rouge155Format, what: string): readonly string[] {
    const lines =
      format === 'SIMPLE' ? this.files.basicElements(path, 'SIMPLE', what) : this.files.sentences(path, format, what);
    if (lines.length === 0) {
      this.warnOnce(
        `palette rouge155: warning: ${path}: empty ${what} (no sentence: ${FORMAT_HINT[format]}); ` +
          'scored as ROUGE-1.5.5 scores it (no tokens)\n',
      );
    }
    return lines;
  }

  /** The unit's results, one per type, or undefined (and a warning, as ROUGE) when the peer is not in it. */
  score(unit: Rouge155Eval, peerId: string): Rouge155TypeCounts[] | undefined {
    const peer = peerPath(this.config, unit, peerId);
    if (peer === undefined) {
      this.env.warn(`*ROUGE Warning: test instance for peer ${peerId} does not exist for evaluation ${unit.id}\n`);
      return undefined;
    }
    const models = modelPaths(this.config, unit);
    if (models.length === 0) this.fail(unit, 'no model summary (<MODELS> with <M ID="…">file</M>)');
    const format = this.format(unit);
    const modelTexts = models.map((m) => this.read(m, format, 'model summary'));
    const peerText = this.read(peer, format, 'peer summary');
    const warnings: string[] = [];
    const results = this.env.scorer(peerText, modelTexts, this.unitOptions, warnings);
    for (const w of warnings) {
      // The scorer numbers the models ("model 2"); the user needs the file.
      const model = /\bmodel (\d+)\b/.exec(w);
      const file = model === null ? peer : (models[Number(model[1]) - 1] ?? peer);
      this.warnOnce(`palette rouge155: warning: ${file}: evaluation ${unit.id}: ${w}\n`);
    }
    if (results.length !== this.names.length || results.some((r, k) => r.type !== this.names[k])) {
      throw new Error(
        `rouge155Unit gave types ${results.map((r) => r.type).join(', ')}; expected ${this.names.join(', ')}`,
      );
    }
    return results;
  }
}

/**
 * Runs ROUGE-1.5.5 as `options` say and returns what it prints on standard output.
 * @throws InputError for bad input (see the module comment)
 */
export function runRouge155(options: Rouge155Options, env: Rouge155RunEnv): string {
  const config = loadRouge155Config(options, env.cwd);
  if (config.evals.length === 0) {
    throw new InputError('E_EMPTY_INPUT', 'no evaluation unit (<EVAL ID="…"> element, or file list line)', {
      file: options.config,
    });
  }
  const names = rouge155TypeNames(options);
  if (names.length === 0) return '';
  const peers =
    options.fileListFormat !== undefined
      ? config.peerIds
      : options.all
        ? [...config.peerIds].sort(perlStringCompare)
        : [options.systemId ?? ''];
  const reader = new UnitReader(config, options, names, env);
  const width = 3 * names.length;
  const counts = options.counting !== 0;
  let out = '';
  for (const peerId of peers) {
    const ids: string[] = [];
    const units: Rouge155TypeCounts[][] = [];
    for (const unit of config.evals) {
      const results = reader.score(unit, peerId);
      if (results === undefined) continue;
      ids.push(`${unit.id}.${peerId}`);
      units.push(results);
    }
    // Rows in ROUGE's resampling order, three columns per type: [R, P, F], or [model, peer, hit] counts.
    const rows = new Float64Array(ids.length * width);
    rouge155UnitOrder(ids).forEach((u, k) => {
      units[u].forEach((v, t) => {
        rows.set(
          counts ? [v.modelCount, v.peerCount, v.hitCount] : [v.recall, v.precision, v.fmeasure],
          k * width + 3 * t,
        );
      });
    });
    const estimates =
      options.counting === 2
        ? undefined
        : rouge155Bootstrap(rows, width, {
            resamples: options.resamples,
            confidence: options.confidence.value,
            counting: options.counting === 1 ? 'token' : 'unit',
            alpha: options.alpha,
          });
    const totals = options.counting === 2 ? rouge155Totals(rows, width) : undefined;
    names.forEach((name, t) => {
      out +=
        estimates !== undefined
          ? formatAverages(peerId, name, estimates[t], options.confidence.text)
          : formatCounts(peerId, name, totals!.subarray(3 * t, 3 * t + 3));
      if (options.perUnit)
        out += formatPerUnit(
          peerId,
          name,
          ids.map((id, u) => ({ id, printed: units[u][t].printed })),
        );
    });
  }
  return out;
}
