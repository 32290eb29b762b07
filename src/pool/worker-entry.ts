/**
 * Where a pool's worker file is and how to start it: the compiled `NAME.js` next to this module in a build, the
 * TypeScript `NAME.ts` loaded through tsx's ESM loader under vitest or tsx.
 */
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The worker file `name` (without extension) of src/pool/ and the `execArgv` it needs. */
export function workerEntry(name: string): { filename: string; execArgv: string[] } {
  const js = new URL(`./${name}.js`, import.meta.url);
  if (import.meta.url.endsWith('.js') && existsSync(fileURLToPath(js))) return { filename: js.href, execArgv: [] };
  const ts = new URL(`./${name}.ts`, import.meta.url);
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  return { filename: ts.href, execArgv: ['--import', tsx] };
}
