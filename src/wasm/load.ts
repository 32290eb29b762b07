/**
 * Loading of the WebAssembly kernels: the `.wasm` built from `assembly/` is compiled once per process (per build)
 * and instantiated as often as needed. Worker threads receive the compiled `WebAssembly.Module` (it is structured-
 * cloneable) and install it with {@link useWasmModule} instead of reading and compiling the file again.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PaletteError } from '../errors.js';
import type { KernelExports } from './kernels.js';

/** Which build of the kernels: `release` (-O3, no asserts) or `debug` (asserts on, for tests). */
export type WasmBuild = 'release' | 'debug';

/**
 * The build selected by the environment: `PALETTE_WASM=debug` selects the debug build; unset, empty or `release`
 * selects the release build.
 * @throws PaletteError `E_WASM` for any other value.
 */
export function selectedWasmBuild(env: NodeJS.ProcessEnv = process.env): WasmBuild {
  const value = env.PALETTE_WASM;
  if (value === undefined || value === '' || value === 'release') return 'release';
  if (value === 'debug') return 'debug';
  throw new PaletteError('E_WASM', `PALETTE_WASM must be "release" or "debug" (got ${JSON.stringify(value)})`);
}

/**
 * Location of a build. Relative to this file, so it resolves from `src/wasm/` (vitest, tsx) and from `dist/wasm/`
 * (compiled package) alike.
 */
export function wasmUrl(build: WasmBuild): URL {
  return build === 'debug'
    ? new URL('../../build/debug.wasm', import.meta.url)
    : new URL('../../build/release.wasm', import.meta.url);
}

/**
 * Reads and compiles a `.wasm` file.
 * @throws PaletteError `E_WASM` when the file is missing ("run npm run build") or is not a valid module.
 */
export function compileWasmFile(url: URL): WebAssembly.Module {
  const path = fileURLToPath(url);
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (cause) {
    const missing = (cause as NodeJS.ErrnoException).code === 'ENOENT';
    throw new PaletteError(
      'E_WASM',
      missing
        ? `WebAssembly kernels not found at ${path} (run npm run build)`
        : `cannot read the WebAssembly kernels at ${path}: ${(cause as Error).message}`,
    );
  }
  try {
    return new WebAssembly.Module(bytes);
  } catch (cause) {
    throw new PaletteError(
      'E_WASM',
      `${path} is not a valid WebAssembly module (run npm run build): ${(cause as Error).message}`,
    );
  }
}

const modules = new Map<WasmBuild, WebAssembly.Module>();

/** The compiled kernels of a build (default: {@link selectedWasmBuild}), compiled on first use and cached. */
export function wasmModule(build: WasmBuild = selectedWasmBuild()): WebAssembly.Module {
  let module = modules.get(build);
  if (module === undefined) {
    module = compileWasmFile(wasmUrl(build));
    modules.set(build, module);
  }
  return module;
}

/**
 * Installs an already compiled module as the given build (a worker installs the one it got in `workerData`
 * before its first kernel call), so that {@link wasmModule} never reads the file.
 */
export function useWasmModule(module: WebAssembly.Module, build: WasmBuild = selectedWasmBuild()): void {
  modules.set(build, module);
}

/** Reads the UTF-16 message AssemblyScript passes to `abort` (length in bytes stored just before the string). */
function readAbortString(memory: WebAssembly.Memory, pointer: number): string {
  if (pointer === 0) return '';
  const bytes = new Uint32Array(memory.buffer, pointer - 4, 1)[0];
  return Buffer.from(memory.buffer, pointer, bytes).toString('utf16le');
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
