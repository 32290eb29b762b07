/**
 * The WebAssembly kernels in a browser: fetched and compiled once (streaming where the server sends
 * `application/wasm`), then installed for this thread with the portable loader (../wasm/load.ts). Workers get the
 * compiled module in a message (it is structured-cloneable) and never fetch or compile it again.
 */
import { PaletteError } from '../errors.js';
import { initWasm } from '../wasm/load.js';

/** Where the kernels come from: a URL of `release.wasm`, its bytes, a fetch `Response`, or the module compiled. */
export type WasmSource = string | URL | ArrayBuffer | ArrayBufferView | Response | WebAssembly.Module;

let loaded: Promise<WebAssembly.Module> | undefined;

/** The default location: `release.wasm` beside the bundle that carries this code. */
function besideBundle(): URL {
  return new URL('./release.wasm', import.meta.url);
}

async function compileResponse(response: Response, where: string): Promise<WebAssembly.Module> {
  if (!response.ok) throw new PaletteError('E_WASM', `cannot fetch the WebAssembly kernels at ${where}: HTTP ${response.status}`);
  // compileStreaming needs the application/wasm type; a static host that sends another compiles from the bytes.
  const wasmType = (response.headers.get('content-type') ?? '').split(';')[0].trim() === 'application/wasm';
  // Browsers have compileStreaming; Node's types (which this project compiles against) do not declare it.
  const streaming = (WebAssembly as unknown as { compileStreaming?: (r: Response) => Promise<WebAssembly.Module> }).compileStreaming;
  try {
    return wasmType && streaming !== undefined
      ? await streaming(response)
      : await WebAssembly.compile(await response.arrayBuffer());
  } catch (cause) {
    throw new PaletteError('E_WASM', `${where} is not a valid WebAssembly module: ${(cause as Error).message}`);
  }
}

async function compileSource(source: WasmSource): Promise<WebAssembly.Module> {
  if (source instanceof WebAssembly.Module) return source;
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) {
    try {
      return await WebAssembly.compile(source);
    } catch (cause) {
      throw new PaletteError('E_WASM', `the WebAssembly kernels are not a valid module: ${(cause as Error).message}`);
    }
  }
  if (typeof Response !== 'undefined' && source instanceof Response) return compileResponse(source, source.url || 'the response');
  const url = String(source);
  let response: Response;
  try {
    response = await fetch(url);
  } catch (cause) {
    throw new PaletteError('E_WASM', `cannot fetch the WebAssembly kernels at ${url}: ${(cause as Error).message}`);
  }
  return compileResponse(response, url);
}

/**
 * Fetches and compiles the kernels once per page (later calls return the same module, whatever `source` they give)
 * and installs them in this thread. Default: `release.wasm` beside the bundle.
 * @throws PaletteError `E_WASM` when they cannot be fetched or compiled (a later call tries again).
 */
export function loadWasm(source: WasmSource = besideBundle()): Promise<WebAssembly.Module> {
  loaded ??= compileSource(source).then(
    (module) => {
      initWasm(module, 'release');
      return module;
    },
    (err: unknown) => {
      loaded = undefined;
      throw err;
    },
  );
  return loaded;
}
