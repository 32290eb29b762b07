/**
 * Builds Palette for the browser (part of `npm run build`): the library `palette-mt/browser` (src/web.ts) as one ESM
 * file with its Web Worker and the kernels beside it in dist/web/, and the offline scoring page as a folder of static
 * files in dist/site/ (`palette serve` serves it). Everything is bundled for the browser platform; a bundle that would
 * take a Node built-in fails the build (the library and the page must run with nothing but a static host).
 */
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const WASM = join(ROOT, 'build/release.wasm');

/** The bundles: output folder, and entry points by output name. */
export const TARGETS = [
  { outdir: 'dist/web', entries: { palette: 'src/web.ts', 'palette-worker': 'src/browser/corpus-worker.ts' } },
];
if (existsSync(join(ROOT, 'src/page/page.ts'))) {
  TARGETS.push({
    outdir: 'dist/site',
    entries: { page: 'src/page/page.ts', 'report-worker': 'src/page/report-worker.ts', 'palette-worker': 'src/browser/corpus-worker.ts' },
    copy: ['src/page/index.html', 'src/page/page.css'],
  });
}

/** Node built-ins among a build's inputs (none may be there). */
export function nodeInputs(metafile) {
  return Object.keys(metafile.inputs).filter((f) => f.startsWith('node:') || /^src\/(node|pool)\//.test(f));
}

/**
 * Builds every target under `outRoot` (default: the repository, so into dist/); returns each target's folder and
 * esbuild's result (its errors, warnings and metafile).
 * @throws Error when esbuild reports an error or a warning, or a bundle takes a Node module.
 */
export async function buildBrowser(outRoot = ROOT) {
  if (!existsSync(WASM)) throw new Error(`${WASM} is missing: run npm run asbuild:release first`);
  const built = [];
  for (const target of TARGETS) {
    const outdir = join(outRoot, target.outdir);
    const result = await build({
      entryPoints: target.entries,
      absWorkingDir: ROOT,
      bundle: true,
      splitting: false,
      platform: 'browser',
      format: 'esm',
      target: 'es2022',
      outdir,
      metafile: true,
      logLevel: outRoot === ROOT ? 'warning' : 'silent',
    });
    if (result.errors.length > 0 || result.warnings.length > 0) throw new Error(`${target.outdir}: esbuild reported problems`);
    const node = nodeInputs(result.metafile);
    if (node.length > 0) throw new Error(`${target.outdir}: the browser bundle takes Node modules: ${node.join(', ')}`);
    mkdirSync(outdir, { recursive: true });
    copyFileSync(WASM, join(outdir, 'release.wasm'));
    for (const file of target.copy ?? []) copyFileSync(join(ROOT, file), join(outdir, file.split('/').pop()));
    built.push({ outdir, result });
  }
  return built;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  buildBrowser().catch((err) => {
    console.error(`build-browser: ${err.message}`);
    process.exit(1);
  });
}
