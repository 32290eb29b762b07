/**
 * The WebAssembly kernels on Node: the `.wasm` builds are read from `build/` beside the package and compiled on
 * first use, through the provider this module hands to the portable loader (../wasm/load.ts). The build is chosen
 * by `PALETTE_WASM` (a developer switch: the debug build has the kernels' assertions on).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PaletteError } from '../errors.js';
import { compileWasm, type WasmBuild, type WasmProvider } from '../wasm/load.js';

/**
 * The build selected by the environment: `PALETTE_WASM=debug` selects the debug build; unset, empty or `release`
 * selects the release build.
 * @throws PaletteError `E_WASM` for any other value.
 */
export function selectedWasmBuild(env: Readonly<Record<string, string | undefined>> = process.env): WasmBuild {
  const value = env.PALETTE_WASM;
  if (value === undefined || value === '' || value === 'release') return 'release';
  if (value === 'debug') return 'debug';
  throw new PaletteError('E_WASM', `PALETTE_WASM must be "release" or "debug" (got ${JSON.stringify(value)})`);
}

/**
 * Location of a build. Relative to this file, so it resolves from `src/node/` (vitest, tsx), from `dist/node/`
 * (compiled package) and from `dist/bundle/` (the bundled CLI, which carries this code) alike.
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
  return compileWasm(bytes, path);
}

/** The Node provider: the build `PALETTE_WASM` selects, read from `build/` when first needed. */
export const nodeWasmProvider: WasmProvider = {
  defaultBuild: () => selectedWasmBuild(process.env),
  compile: (build) => compileWasmFile(wasmUrl(build)),
};
