/**
 * A pool task's result is marked for transfer as `Piscina.move` marks it, without piscina's main module: piscina's
 * own check (its common module's `isMovable`, which its worker script runs on every result) accepts the mark, and
 * with the piscina release the project pins the mark comes from piscina's symbols module.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Piscina } from 'piscina';
import { movable, movableMarking } from '../src/pool/movable.js';

const requireHere = createRequire(import.meta.url);
const piscinaDist = dirname(requireHere.resolve('piscina'));
const { isMovable } = requireHere(join(piscinaDist, 'common.js')) as { isMovable: (value: unknown) => boolean };

describe('movable', () => {
  it('is accepted by piscina as movable, with the value and the buffers to transfer', () => {
    const reply = { result: { ok: true }, busyMs: 1 };
    const buffer = new ArrayBuffer(8);
    const marked = movable(reply, [buffer]) as Record<symbol, unknown>;
    expect(isMovable(marked)).toBe(true);
    expect(marked[Piscina.valueSymbol]).toBe(reply);
    expect(marked[Piscina.transferableSymbol]).toEqual([buffer]);
  });

  it('marks as Piscina.move does (an object with the same symbols but no mark is not movable)', () => {
    const plain = { [Piscina.transferableSymbol]: [], [Piscina.valueSymbol]: 1 };
    expect(isMovable(plain)).toBe(false);
    expect(isMovable(Piscina.move({ [Piscina.transferableSymbol]: [], [Piscina.valueSymbol]: 1 } as never))).toBe(true);
  });

  it('finds the mark in piscina\'s symbols module', () => {
    expect(movableMarking()).toBe('symbols');
  });
});
