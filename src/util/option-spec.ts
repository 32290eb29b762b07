/**
 * The shape of one command-line option. It sits below every layer because the metrics declare their own flags
 * (each metric folder's flag table) and the command line composes and parses them (src/cli/args.ts).
 */

/** How many values an option takes. */
export type OptionArity = 'flag' | 'one' | 'any' | 'some' | 'append';

/** One command-line option. */
export interface OptionSpec {
  /** Key the parsed value is stored under. */
  readonly key: string;
  /** Spellings, long first (`['--width', '-w']`). */
  readonly names: readonly string[];
  /**
   * `flag`: no value; `one`: one value; `any`/`some`: zero/one or more values (argparse `nargs='*'`/`'+'`);
   * `append`: one value per occurrence, the occurrences gathered in order (argparse `action='append'`, Boost's
   * repeated `vector<string>` options).
   */
  readonly arity: OptionArity;
  /** Placeholder of the value in the help text. */
  readonly metavar?: string;
  /** One-line description for the help text (defaults included). */
  readonly help: string;
  /** Help section. */
  readonly group: string;
}
