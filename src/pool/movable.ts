/**
 * A task's result marked for piscina to transfer the buffers it names instead of copying them, as `Piscina.move`
 * marks it, for the worker script (./worker.ts) to return.
 *
 * `Piscina.move` lives in piscina's main module, and loading that module (its pool, task queues and histogram code,
 * a dozen files read and compiled) took a worker thread 5–24 ms of its start-up on a 2-core machine, ahead of its
 * first task. piscina's own worker script, which runs ours, has already loaded the module of its symbols: a result
 * is movable when it carries the transferable and value symbols (registered, `Symbol.for`) and that module's own
 * mark. Required here from the same file, that module is the same instance, so the mark is the one piscina's worker
 * script checks. Should a piscina release name its symbols otherwise, the result goes through `Piscina.move` itself:
 * the same transfer, with the main module loaded.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

type Mark = (value: object) => object;

const requireHere = createRequire(import.meta.url);

/** The mark of piscina's worker script from its symbols module, or undefined when it is not found there. */
function symbolsMark(): { mark: Mark; transferable: symbol; value: symbol } | undefined {
  let symbols: { kMovable?: unknown; kTransferable?: unknown; kValue?: unknown };
  try {
    symbols = requireHere(join(dirname(requireHere.resolve('piscina')), 'symbols.js')) as typeof symbols;
  } catch {
    return undefined;
  }
  const { kMovable, kTransferable, kValue } = symbols;
  if (typeof kMovable !== 'symbol' || kTransferable !== Symbol.for('Piscina.transferable') || kValue !== Symbol.for('Piscina.valueOf')) {
    return undefined;
  }
  return {
    mark: (value) => Object.defineProperty(value, kMovable, { value: true, enumerable: false, configurable: true, writable: true }),
    transferable: kTransferable,
    value: kValue,
  };
}

/** piscina's public way, through its main module. */
function piscinaMark(): { mark: Mark; transferable: symbol; value: symbol } {
  const { Piscina } = requireHere('piscina') as typeof import('piscina');
  return { mark: (value) => Piscina.move(value as never) as object, transferable: Piscina.transferableSymbol, value: Piscina.valueSymbol };
}

let marker: { mark: Mark; transferable: symbol; value: symbol; how: 'symbols' | 'piscina' } | undefined;

function theMarker(): NonNullable<typeof marker> {
  if (marker === undefined) {
    const fromSymbols = symbolsMark();
    marker = fromSymbols === undefined ? { ...piscinaMark(), how: 'piscina' } : { ...fromSymbols, how: 'symbols' };
  }
  return marker;
}

/** `value`, to be sent back with the buffers of `transfer` transferred (piscina's movable wrapper of it). */
export function movable(value: unknown, transfer: readonly ArrayBuffer[]): object {
  const m = theMarker();
  return m.mark({ [m.transferable]: transfer, [m.value]: value });
}

/** How results are marked: from piscina's symbols module, or through `Piscina.move` (for tests). */
export function movableMarking(): 'symbols' | 'piscina' {
  return theMarker().how;
}
