/**
 * Imports a module on demand in a pool worker. A built worker is an ES module and uses `import()`. Started from
 * the TypeScript sources (tests, tsx), a worker runs as CommonJS through tsx's `require` hook — Node 20 applies no
 * ESM loader hooks in worker threads, so `import()` of a `.ts` file fails there — and loads the module with the
 * caller's `require` instead, which that hook serves.
 * @param esm `() => import(specifier)`.
 * @param cjs `() => require(specifier)` with the same literal specifier, written in the caller's file so that it
 * resolves from there.
 */
export function lazyImport<T>(esm: () => Promise<T>, cjs: () => unknown): Promise<T> {
  return typeof require === 'function' ? Promise.resolve(cjs() as T) : esm();
}
