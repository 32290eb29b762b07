/**
 * A small argparse-compatible command-line parser (no dependency: the grammar sacrebleu users rely on is small and
 * must match argparse's, which no npm parser reproduces exactly).
 *
 * What it reproduces: long options abbreviated to any unique prefix (`--smooth` = `--smooth-method`); `--opt=value`
 * and `-o=value`; single-dash options of one letter with the value glued on (`-w2`); options taking a list
 * (`nargs='*'`/`'+'`) that consume arguments up to the next option; tokens that look like negative numbers are
 * values, not options; `--` ends option parsing; positionals form one contiguous run (a second run is an error, as
 * argparse reports "unrecognized arguments"). Every problem is an `InputError` (`E_BAD_OPTION`).
 */
import { InputError } from '../errors.js';
import type { OptionSpec } from '../util/option-spec.js';

export type { OptionArity, OptionSpec } from '../util/option-spec.js';

/** A parsed value: `true` for a flag, a string, or a list of strings. */
export type ParsedValue = true | string | string[];

/** Result of {@link parseArgs}. */
export interface ParsedArgs {
  /** Values by option key; keys of options not given are absent. */
  readonly values: ReadonlyMap<string, ParsedValue>;
  /** The positional arguments (one contiguous run). */
  readonly positionals: readonly string[];
}

const NEGATIVE_NUMBER = /^-\d+$|^-\d*\.\d+$/;

function looksLikeOption(token: string): boolean {
  return token.length > 1 && token.startsWith('-') && !NEGATIVE_NUMBER.test(token);
}

function badArgs(message: string): InputError {
  return new InputError('E_BAD_OPTION', message);
}

/** Finds the option a token names, with the value glued to it if any. */
function resolveOption(
  token: string,
  byName: ReadonlyMap<string, OptionSpec>,
): { spec: OptionSpec; name: string; glued: string | undefined } {
  const eq = token.indexOf('=');
  const head = eq > 0 ? token.slice(0, eq) : token;
  const glued = eq > 0 ? token.slice(eq + 1) : undefined;
  const exact = byName.get(head);
  if (exact) return { spec: exact, name: head, glued };

  const candidates: { spec: OptionSpec; name: string; glued: string | undefined }[] = [];
  if (head.startsWith('--')) {
    for (const [name, spec] of byName) if (name.startsWith('--') && name.startsWith(head)) candidates.push({ spec, name, glued });
  } else {
    // argparse: `-w2` is `-w` with value `2`; `-to` may abbreviate a single-dash long option such as `-tok`.
    const short = byName.get(token.slice(0, 2));
    if (short && eq < 0) candidates.push({ spec: short, name: token.slice(0, 2), glued: token.slice(2) });
    for (const [name, spec] of byName) {
      if (!name.startsWith('--') && name.length > 2 && name.startsWith(head)) candidates.push({ spec, name, glued });
    }
  }
  const distinct = [...new Map(candidates.map((c) => [c.spec.key, c])).values()];
  if (distinct.length === 1) return distinct[0];
  if (distinct.length > 1) {
    const names = distinct.map((c) => c.name).join(', ');
    throw badArgs(`ambiguous option: ${head} could match ${names}`);
  }
  throw badArgs(`unrecognized option ${JSON.stringify(head)}`);
}

/**
 * Parses `argv` (without the command name) against `specs`.
 * @throws InputError `E_BAD_OPTION` for an unknown or ambiguous option, a missing value, a value given to a flag,
 *   or positional arguments in more than one place.
 */
export function parseArgs(argv: readonly string[], specs: readonly OptionSpec[]): ParsedArgs {
  const byName = new Map<string, OptionSpec>();
  for (const spec of specs) for (const name of spec.names) byName.set(name, spec);
  const values = new Map<string, ParsedValue>();
  const positionals: string[] = [];
  let positionalRuns = 0;
  let inRun = false;
  let i = 0;
  const addPositional = (token: string): void => {
    if (!inRun) {
      positionalRuns++;
      inRun = true;
    }
    if (positionalRuns > 1) throw badArgs(`unrecognized arguments: ${token} (references must come before -i/--input)`);
    positionals.push(token);
  };
  while (i < argv.length) {
    const token = argv[i++];
    if (token === '--') {
      while (i < argv.length) addPositional(argv[i++]);
      break;
    }
    if (!looksLikeOption(token)) {
      addPositional(token);
      continue;
    }
    inRun = false;
    const { spec, name, glued } = resolveOption(token, byName);
    if (spec.arity === 'flag') {
      if (glued !== undefined) throw badArgs(`option ${name} takes no value (got ${JSON.stringify(glued)})`);
      values.set(spec.key, true);
      continue;
    }
    if (spec.arity === 'one' || spec.arity === 'append') {
      let value = glued;
      if (value === undefined) {
        if (i >= argv.length || looksLikeOption(argv[i]) || argv[i] === '--') {
          throw badArgs(`option ${name} expects one value`);
        }
        value = argv[i++];
      }
      if (spec.arity === 'one') {
        values.set(spec.key, value);
      } else {
        const seen = values.get(spec.key);
        values.set(spec.key, Array.isArray(seen) ? [...seen, value] : [value]);
      }
      continue;
    }
    const list: string[] = glued === undefined ? [] : [glued];
    while (i < argv.length && argv[i] !== '--' && !looksLikeOption(argv[i])) list.push(argv[i++]);
    if (spec.arity === 'some' && list.length === 0) throw badArgs(`option ${name} expects at least one value`);
    values.set(spec.key, list);
  }
  return { values, positionals };
}

/** Formats the options of `specs` as help text, one section per group, in the order of first appearance. */
export function formatOptionHelp(specs: readonly OptionSpec[]): string {
  const groups = new Map<string, OptionSpec[]>();
  for (const spec of specs) {
    const list = groups.get(spec.group) ?? [];
    list.push(spec);
    groups.set(spec.group, list);
  }
  const lines: string[] = [];
  for (const [group, list] of groups) {
    lines.push('', `${group}:`);
    for (const spec of list) {
      const value =
        spec.arity === 'flag'
          ? ''
          : spec.arity === 'one' || spec.arity === 'append'
            ? ` ${spec.metavar ?? 'VALUE'}`
            : ` ${spec.metavar ?? 'VALUE'} [${spec.metavar ?? 'VALUE'} ...]`;
      const left = `  ${[...spec.names].reverse().join(', ')}${value}`;
      lines.push(left.length < 34 ? `${left.padEnd(34)}${spec.help}` : `${left}\n${' '.repeat(34)}${spec.help}`);
    }
  }
  return lines.join('\n');
}
