/**
 * The name table kernel (src/wasm/name-table.ts, assembly/name-table.ts) against its oracle (./reference/meteor-words.ts,
 * a Map): every name gets the id of its first appearance, from units of another memory or from strings, across the
 * growth of every region.
 */
import { describe, expect, it } from 'vitest';
import { NameTable } from '../src/wasm/name-table.js';
import { mulberry32 } from './helpers/mulberry32.js';
import { oracleNameIds } from './reference/meteor-words.js';

/** Names of one to twelve units from a small alphabet (so that many recur), some with units above ASCII. */
function names(n: number, seed: number): string[] {
  const rnd = mulberry32(seed);
  const alphabet = ['a', 'b', 'e', 's', 'ä', 'ß', '\u201e', 'Ж', '\ud800', '\u{1f600}'];
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    let s = '';
    const length = 1 + Math.floor(rnd() * 12);
    for (let k = 0; k < length; k++) s += alphabet[Math.floor(rnd() * (rnd() < 0.8 ? 4 : alphabet.length))];
    out.push(s);
  }
  return out;
}

describe('name table kernel', () => {
  it('gives each name the id of its first appearance, in batches of units and of strings, as a Map does', () => {
    const table = new NameTable();
    const oracle = new Map<string, number>();
    for (let batch = 0; batch < 12; batch++) {
      const batchNames = names(3000 + 500 * batch, batch + 1);
      if (batch % 3 === 0) batchNames.push('', 'x'.repeat(5000));
      const out = new Int32Array(batchNames.length);
      if (batch % 2 === 0) table.internStrings(batchNames, batchNames.length, out);
      else {
        // Units with a prefix before the first run, as a kernel's output region may have.
        const starts = new Uint32Array(batchNames.length + 1);
        const units: number[] = [7, 7, 7];
        starts[0] = 3;
        batchNames.forEach((s, r) => {
          for (let i = 0; i < s.length; i++) units.push(s.charCodeAt(i));
          starts[r + 1] = units.length;
        });
        table.internUnits(Uint16Array.from(units), starts, batchNames.length, out);
      }
      expect([...out]).toEqual(oracleNameIds(batchNames, oracle));
      expect(table.count).toBe(oracle.size);
    }
    for (const [s, id] of oracle) if (id % 97 === 0) expect(table.name(id)).toBe(s);
  });
});
