/** Loading the WebAssembly kernels: build selection, compile-once cache, instances, errors. */
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PaletteError } from '../src/errors.js';
import { compileWasmFile, selectedWasmBuild, wasmUrl } from '../src/node/wasm.js';
import { instantiateKernels, useWasmModule, wasmModule } from '../src/wasm/load.js';

/** Runs `f` and returns the PaletteError it throws. */
function paletteErrorOf(f: () => unknown): PaletteError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(PaletteError);
    return e as PaletteError;
  }
  throw new Error('expected a PaletteError');
}

describe('build selection', () => {
  it('selects release by default and debug with PALETTE_WASM=debug', () => {
    expect(selectedWasmBuild({})).toBe('release');
    expect(selectedWasmBuild({ PALETTE_WASM: '' })).toBe('release');
    expect(selectedWasmBuild({ PALETTE_WASM: 'release' })).toBe('release');
    expect(selectedWasmBuild({ PALETTE_WASM: 'debug' })).toBe('debug');
  });

  it('refuses other values with E_WASM', () => {
    const e = paletteErrorOf(() => selectedWasmBuild({ PALETTE_WASM: 'fast' }));
    expect(e.code).toBe('E_WASM');
    expect(e.message).toBe('PALETTE_WASM must be "release" or "debug" (got "fast")');
  });

  it('resolves the builds in build/ at the repository root', () => {
    expect(wasmUrl('release').href).toBe(new URL('../build/release.wasm', import.meta.url).href);
    expect(wasmUrl('debug').href).toBe(new URL('../build/debug.wasm', import.meta.url).href);
  });
});

describe('compiling', () => {
  it('compiles each build once per process', () => {
    expect(wasmModule('release')).toBe(wasmModule('release'));
    expect(wasmModule('debug')).not.toBe(wasmModule('release'));
  });

  it('reports a missing file as E_WASM and says how to build it', () => {
    const e = paletteErrorOf(() => compileWasmFile(pathToFileURL('/nonexistent/palette/build/release.wasm')));
    expect(e.code).toBe('E_WASM');
    expect(e.message).toMatch(/^WebAssembly kernels not found at .*release\.wasm \(run npm run build\)$/);
  });

  it('reports a file that is not WebAssembly as E_WASM', () => {
    const dir = mkdtempSync(join(tmpdir(), 'palette-wasm-'));
    try {
      const file = join(dir, 'bad.wasm');
      writeFileSync(file, 'not wasm');
      const e = paletteErrorOf(() => compileWasmFile(pathToFileURL(file)));
      expect(e.code).toBe('E_WASM');
      expect(e.message).toMatch(/is not a valid WebAssembly module \(run npm run build\)/);
    } finally {
      rmSync(dir, { recursive: true });
    }
  });

  it('installs a module compiled elsewhere (as a worker does with workerData)', () => {
    const own = compileWasmFile(wasmUrl('release'));
    const before = wasmModule('release');
    useWasmModule(own, 'release');
    try {
      expect(wasmModule('release')).toBe(own);
    } finally {
      useWasmModule(before, 'release');
    }
  });
});

describe('instances', () => {
  it('each have their own memory, with the heap above the static data', () => {
    const a = instantiateKernels(wasmModule('release'));
    const b = instantiateKernels(wasmModule('release'));
    expect(a.memory).not.toBe(b.memory);
    expect(a.heapBase()).toBeGreaterThan(0);
    expect(a.heapBase()).toBeLessThan(a.memory.buffer.byteLength);
  });

  it('turn a failed debug assertion into E_WASM with the kernel source location', () => {
    const k = instantiateKernels(wasmModule('debug'));
    const at = (k.heapBase() + 15) & ~15;
    const i32 = new Int32Array(k.memory.buffer);
    // One hypothesis of segment 0, whose reference offsets run backwards (2 → 1): only asserts catch it.
    i32.set([0, 0, 2, 1, 4], at >> 2); // hyp offsets [0, 0], segRefOffsets [2, 1], capacity [4]
    const e = paletteErrorOf(() =>
      k.clippedNgramCounts(at, at, 1, 0, at, at, at + 8, at + 16, 1, 0, 0, at + 64, 128, 0, 0, 0, at + 256));
    expect(e.code).toBe('E_WASM');
    expect(e.message).toMatch(/^kernel assertion failed at assembly\/ngram\.ts:\d+:\d+/);
  });
});
