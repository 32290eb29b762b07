/** What the tercom golden suites share: tercom's command-line flags as options, and their comparison. */
import type { TercomTerOptions } from '../../src/metrics/ter/tercom-ter.js';

/** tercom's command-line flags (`-s`, `-N`, `-P`, `-A`) as options. */
export function tercomOptionsOf(flags: readonly string[]): TercomTerOptions {
  return {
    caseSensitive: flags.includes('-s'),
    normalized: flags.includes('-N'),
    noPunct: flags.includes('-P'),
    asianSupport: flags.includes('-A'),
  };
}

/** Equal to tercom's printed value: within 1e-9 of it, relative (1e-12 absolute near 0). */
export function tercomClose(actual: number, expected: number): boolean {
  return Math.abs(actual - expected) <= Math.max(1e-9 * Math.abs(expected), 1e-12);
}
