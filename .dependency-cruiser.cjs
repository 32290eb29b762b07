/**
 * Import rules of src/, checked by dependency-cruiser (`npx depcruise src`, and in `npm test` by
 * test/layering.test.ts). Data flows one way, from the bottom of this list to the top:
 *
 *   base      src/util, src/resources, src/errors.ts, src/version.ts (usable by every layer)
 *   text      tokenizers, Unicode tables, interning of tokens into ids
 *   corpus    input formats held in memory (lines, n-best lists, ROUGE configurations), CSR token stores
 *   wasm      the WebAssembly kernels and the engines that lay their inputs out
 *   metrics   the metrics behind one contract
 *   engine    n-best and corpus scoring over the metrics
 *   analysis  meta-evaluation (src/meta), the HTML report (src/report), tuning helpers (src/tuning)
 *   adapters  Node file I/O and kernel loading (src/node), worker pools (src/pool); the browser's kernel loading,
 *             Web Worker pool and input reading (src/browser, no node: module)
 *   cli       the command line (src/cli)
 *   page      the offline scoring page (src/page): the report command's code run in a browser, no node: module
 *
 * A layer imports its own layer and the layers below it, never one above. The three entries sit outside the layers:
 * src/core.ts (the portable core, `palette-mt/core`) may import every layer below the adapters, src/web.ts (the
 * browser entry, `palette-mt/browser`) the core and src/browser, src/index.ts (the Node entry) anything; no module
 * imports an entry. Only the adapters and the CLI import `node:` modules or piscina
 * (test/core-node-free.test.ts checks the uses dependency-cruiser cannot see: `process`, `require`). No cycles.
 *
 * Type-only imports count like any other: a type declared in a higher layer and needed lower down belongs to the
 * lower layer (the kernels declare the shapes they take, and the layers above fill them in). There are no
 * exceptions today; an exception added here must say why the import cannot move.
 */

/** The layers, bottom first; each path pattern matches the files of one layer. */
const LAYERS = [
  { name: 'base', path: '^src/(util|resources)/|^src/(errors|version)[.]ts$' },
  { name: 'text', path: '^src/text/' },
  { name: 'corpus', path: '^src/corpus/' },
  { name: 'wasm', path: '^src/wasm/' },
  { name: 'metrics', path: '^src/metrics/' },
  { name: 'engine', path: '^src/engine/' },
  { name: 'analysis', path: '^src/(meta|report|tuning)/' },
  { name: 'adapters', path: '^src/(node|pool|browser)/' },
  { name: 'cli', path: '^src/cli/' },
  { name: 'page', path: '^src/page/' },
];
const ENTRIES = '^src/(core|index|web)[.]ts$';
const ADAPTERS = '^src/(node|pool|cli)/';
const KNOWN = [...LAYERS.map((l) => l.path), ENTRIES].join('|');

/** One rule per layer: nothing of a layer imports a layer above it, or an entry. */
const layerRules = LAYERS.map((layer, i) => ({
  name: `layer-${layer.name}`,
  severity: 'error',
  comment:
    `${layer.name} imports a layer above it` +
    (i + 1 < LAYERS.length ? ` (${LAYERS.slice(i + 1).map((l) => l.name).join(', ')})` : '') +
    ' or an entry (src/core.ts, src/index.ts): move the code to the layer it belongs to',
  from: { path: layer.path },
  to: { path: [...LAYERS.slice(i + 1).map((l) => l.path), ENTRIES].join('|') },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: 'core-entry-portable',
      severity: 'error',
      comment: 'src/core.ts is the portable core: it imports no adapter, no CLI and not the Node entry',
      from: { path: '^src/core[.]ts$' },
      to: { path: `${ADAPTERS}|^src/index[.]ts$` },
    },
    {
      name: 'browser-entry-portable',
      severity: 'error',
      comment: 'src/web.ts is the browser entry: besides the core it imports only src/browser (no Node adapter, no CLI)',
      from: { path: '^src/web[.]ts$' },
      to: { path: `${ADAPTERS}|^src/index[.]ts$` },
    },
    {
      name: 'page-portable',
      severity: 'error',
      comment: 'src/page runs in a browser: it imports no Node adapter or pool module',
      from: { path: '^src/page/' },
      to: { path: '^src/(node|pool)/' },
    },
    {
      name: 'browser-adapter-portable',
      severity: 'error',
      comment: 'src/browser runs in pages and Web Workers: it imports no Node adapter, pool or CLI module',
      from: { path: '^src/browser/' },
      to: { path: ADAPTERS },
    },
    {
      name: 'unlayered-source',
      severity: 'error',
      comment: 'a file of src/ outside every layer: add its folder to LAYERS in .dependency-cruiser.cjs',
      from: { path: '^src/', pathNot: KNOWN },
      to: {},
    },
    {
      name: 'unlayered-target',
      severity: 'error',
      comment: 'an import of a file of src/ outside every layer: add its folder to LAYERS in .dependency-cruiser.cjs',
      from: { path: '^src/' },
      to: { path: '^src/', pathNot: KNOWN },
    },
    {
      name: 'node-builtins-in-adapters-only',
      severity: 'error',
      comment: 'only src/node, src/pool and src/cli import node: modules; the core must run in a browser',
      from: { path: '^src/', pathNot: ADAPTERS },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'piscina-in-adapters-only',
      severity: 'error',
      comment: 'only src/node, src/pool and src/cli import piscina (worker threads are Node-only)',
      from: { path: '^src/', pathNot: ADAPTERS },
      to: { path: '(^|/)node_modules/piscina/' },
    },
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'a cycle of imports (type-only ones too): split the shared part out, or declare it in the lower module',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'no-dev-dependencies-in-src',
      severity: 'error',
      comment: 'src/ is what the package ships; a devDependency is not installed with it',
      from: { path: '^src/' },
      to: { dependencyTypes: ['npm-dev'] },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment: 'an import that resolves to no file or package',
      from: { path: '^src/' },
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Type-only imports are dependencies too (see above).
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
