/**
 * The fast tokenizers against their plain regex references on real text: WMT17 en-de (the reference and the
 * first three systems in ../shared/data/sacrebleu-tests, to keep the run short), raw lines and lowercased.
 * Skipped when ../shared is absent.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { pyLower } from '../src/text/pystr.js';
import { regexpPost } from '../src/text/tokenizers/regexp-post.js';
import { regexpPostScan } from '../src/text/tokenizers/regexp-post-scanner.js';
import { tokenize13a, tokenize13aRegex } from '../src/text/tokenizers/tokenizer-13a.js';
import { tokenizeIntl, tokenizeIntlRegex } from '../src/text/tokenizers/tokenizer-intl.js';
import { SHARED, haveShared } from './helpers/shared-data.js';

const WMT17 = new URL('data/sacrebleu-tests/wmt17-en-de/', SHARED);
const HAVE_WMT17 = haveShared('data/sacrebleu-tests/wmt17-en-de/ref.de', 'data/sacrebleu-tests/wmt17-en-de/systems/');

// A skipped suite's body still runs to collect its tests, so nothing is read from ../shared unless it is here.
describe.skipIf(!HAVE_WMT17)('scanners equal the regex pipelines on WMT17 en-de', () => {
  const files = [new URL('ref.de', WMT17)];
  if (HAVE_WMT17) {
    for (const f of readdirSync(new URL('systems/', WMT17)).sort().slice(0, 3)) files.push(new URL(`systems/${f}`, WMT17));
  }
  const lines = HAVE_WMT17 ? files.flatMap((f) => readFileSync(f, 'utf8').split('\n')) : [];
  const cases: [string, (s: string) => string, (s: string) => string][] = [
    ['13a', tokenize13a, tokenize13aRegex],
    ['intl', tokenizeIntl, tokenizeIntlRegex],
    ['regex stage without padding (zh)', (s) => regexpPostScan(s, false), regexpPost],
  ];

  it.each(cases)('%s', (_name, fast, plain) => {
    let mismatches = 0;
    for (const line of lines) {
      for (const s of [line, pyLower(line)]) if (fast(s) !== plain(s)) mismatches++;
    }
    expect(lines.length).toBeGreaterThan(12000);
    expect(mismatches).toBe(0);
  });
});
