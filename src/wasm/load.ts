/**
 * Loading of the WebAssembly kernels, on any JavaScript platform: the kernels built from `assembly/` are compiled
 * once per build and instantiated as often as needed. This module never reads a file: the compiled module comes
 * either from {@link initWasm} (the caller hands over the bytes of `build/release.wasm`, or a module it compiled)
 * or, on first use, from the {@link WasmProvider} an adapter installed (the Node adapter, src/node/wasm.ts, reads the
 * file beside the package). Worker threads receive the compiled `WebAssembly.Module` (it is structured-cloneable)
 * and install it with {@link useWasmModule} instead of compiling the bytes again.
 *
 * Compiling and instantiating are synchronous (`new WebAssembly.Module`, `new WebAssembly.Instance`), so metrics
 * can build their kernel instances lazily inside synchronous calls on every platform.
 */
import { PaletteError } from '../errors.js';
import type { KernelExports } from './kernels.js';

/** Which build of the kernels: `release` (-O3, no asserts) or `debug` (asserts on, for tests). */
export type WasmBuild = 'release' | 'debug';

/** Where compiled kernels come from when none was installed: an adapter's access to the `.wasm` files. */
export interface WasmProvider {
  /** The build used when a caller names none. */
  defaultBuild(): WasmBuild;
  /**
   * The compiled kernels of `build` (called at most once per build and process: the result is cached).
   * @throws PaletteError `E_WASM` when they cannot be had.
   */
  compile(build: WasmBuild): WebAssembly.Module;
}

let provider: WasmProvider | null = null;
const modules = new Map<WasmBuild, WebAssembly.Module>();

/**
 * Installs the provider consulted for a build that has no module yet (null removes it). Modules already compiled
 * or installed stay.
 */
export function setWasmProvider(next: WasmProvider | null): void {
  provider = next;
}

/** The build used when a caller names none: the provider's choice, `release` without a provider. */
export function defaultWasmBuild(): WasmBuild {
  return provider === null ? 'release' : provider.defaultBuild();
}

/**
 * Compiles the bytes of a `.wasm` build.
 * @param where what the bytes are, for the message (a path, or `the WebAssembly kernels`)
 * @throws PaletteError `E_WASM` when they are not a valid WebAssembly module.
 */
export function compileWasm(bytes: ArrayBufferView | ArrayBuffer, where = 'the WebAssembly kernels'): WebAssembly.Module {
  try {
    return new WebAssembly.Module(bytes);
  } catch (cause) {
    throw new PaletteError(
      'E_WASM',
      `${where} is not a valid WebAssembly module (run npm run build): ${(cause as Error).message}`,
    );
  }
}

/**
 * Makes the kernels available: `source` is the content of `build/release.wasm` (or of the debug build, with
 * `build: 'debug'`), or that content already compiled. Needed once per thread before the first score where no
 * provider is installed (browsers, workers without the Node adapter); the Node entry loads the kernels itself.
 * @throws PaletteError `E_WASM` when the bytes are not a valid WebAssembly module.
 */
export function initWasm(source: ArrayBufferView | ArrayBuffer | WebAssembly.Module, build: WasmBuild = defaultWasmBuild()): void {
  modules.set(build, source instanceof WebAssembly.Module ? source : compileWasm(source));
}

/**
 * The compiled kernels of a build (default: {@link defaultWasmBuild}): the one installed, else the provider's,
 * compiled on first use and cached.
 * @throws PaletteError `E_WASM` when there is neither.
 */
export function wasmModule(build: WasmBuild = defaultWasmBuild()): WebAssembly.Module {
  let module = modules.get(build);
  if (module === undefined) {
    if (provider === null) {
      throw new PaletteError(
        'E_WASM',
        `the ${build} WebAssembly kernels are not loaded: call initWasm() with the bytes of build/${build}.wasm first ` +
          '(the Node entry, palette-mt, loads them itself)',
      );
    }
    module = provider.compile(build);
    modules.set(build, module);
  }
  return module;
}

/**
 * Installs an already compiled module as the given build (a worker installs the one it got in `workerData`
 * before its first kernel call), so that {@link wasmModule} never compiles it again.
 */
export function useWasmModule(module: WebAssembly.Module, build: WasmBuild = defaultWasmBuild()): void {
  modules.set(build, module);
}

const utf16 = new TextDecoder('utf-16le');

/** Reads the UTF-16 message AssemblyScript passes to `abort` (length in bytes stored just before the string). */
function readAbortString(memory: WebAssembly.Memory, pointer: number): string {
  if (pointer === 0) return '';
  const bytes = new Uint32Array(memory.buffer, pointer - 4, 1)[0];
  return utf16.decode(new Uint8Array(memory.buffer, pointer, bytes));
}

/**
 * A new instance of the kernels, with its own linear memory. Each instance (one per thread, or one per
 * long-lived reference set) owns its memory; a failed debug assertion surfaces as `PaletteError('E_WASM')`.
 */
export function instantiateKernels(module: WebAssembly.Module = wasmModule()): KernelExports {
  let memory: WebAssembly.Memory | undefined;
  const imports = {
    env: {
      abort(message: number, file: number, line: number, column: number): never {
        const where = memory ? `${readAbortString(memory, file)}:${line}:${column}` : `${line}:${column}`;
        const what = memory ? readAbortString(memory, message) : '';
        throw new PaletteError('E_WASM', `kernel assertion failed at ${where}${what ? `: ${what}` : ''}`);
      },
    },
  };
  const instance = new WebAssembly.Instance(module, imports);
  const kernels = instance.exports as unknown as KernelExports;
  memory = kernels.memory;
  return kernels;
}
