/**
 * The edge-tok fixtures are byte-identical copies of the shared goldens (see test/fixtures/edge-tok/SOURCE.md).
 * Reads ../shared (relative to the repository root); skipped when it is absent.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { SHARED, haveShared } from './helpers/shared-data.js';

const EDGE = new URL('golden/edge/', SHARED);
const FIXTURES = new URL('./fixtures/edge-tok/', import.meta.url);
const FILES = [
  'inputs.jsonl',
  'sacrebleu_tok_13a.jsonl',
  'sacrebleu_tok_intl.jsonl',
  'sacrebleu_tok_zh.jsonl',
  'sacrebleu_tok_char.jsonl',
  'sacrebleu_tok_none.jsonl',
];

describe.skipIf(!haveShared('golden/edge/'))('edge-tok fixtures equal ../shared/golden/edge', () => {
  it.each(FILES)('%s', (file) => {
    const fixture = gunzipSync(readFileSync(new URL(`${file}.gz`, FIXTURES)));
    const original = readFileSync(new URL(file, EDGE));
    expect(fixture.equals(original)).toBe(true);
  });
});
