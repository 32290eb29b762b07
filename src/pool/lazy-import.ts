/**
 * Imports a module on demand in a pool worker. A built worker is an ES module and uses `import()`. Started from
 * the TypeScript sources (tests, tsx), a worker runs as CommonJS through tsx's `require` hook — Node 20 applies no
 * ESM loader hooks in worker threads, so `import()` of a `.ts` file fails there — and loads the module with the
 * caller's `require` instead, which that hook serves.
 *
 * The caller's `require` comes from a constant of its own file (`sourceRequire`), never as a literal
 * `require('…')` call: a bundler inlines every module a literal call names, so a built worker would load (parse and
 * compile) the code of every kind and every metric at start-up, whatever it runs.
 * @param esm `() => import(specifier)`.
 * @param cjs `() => sourceRequire(specifier)` with the same literal specifier, written in the caller's file so that it
 * resolves from there; undefined in a built worker (its `sourceRequire` is undefined).
 */
export function lazyImport<T>(esm: () => Promise<T>, cjs: (() => unknown) | undefined): Promise<T> {
  return cjs !== undefined ? Promise.resolve(cjs() as T) : esm();
}
