/**
 * The streams and environment a CLI run uses, passed in so that tests run commands in-process with plain strings.
 */

/** Where a run writes and what it reads. */
export interface CliIo {
  /** Standard output; `isTTY` decides colours, as sacrebleu's colorama does. */
  readonly stdout: { write(text: string): unknown; readonly isTTY?: boolean };
  /** Standard error: messages and warnings. */
  readonly stderr: { write(text: string): unknown };
  /** Standard input, read only when a command asks for it (`-i -`, or no `-i`). */
  readonly stdin?: AsyncIterable<Uint8Array | string>;
  /** Environment (`SACREBLEU_FORMAT`, `NO_COLOR`). @default {} */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** Exit statuses of `palette`. */
export const EXIT_OK = 0;
/** An internal failure (a bug, or the machine): the message is printed, exit status 1. */
export const EXIT_INTERNAL = 1;
/** Bad input or usage the user must fix (argparse uses 2 for usage errors too). */
export const EXIT_INPUT = 2;
