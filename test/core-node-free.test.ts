/**
 * Only the adapters touch Node: no source file outside src/node/ (files, kernels from disk), src/pool/ (worker
 * pools) and src/cli/ imports a `node:` module or piscina, calls `require`, or uses `process`. Imports are the
 * import rules' (.dependency-cruiser.cjs, checked in test/layering.test.ts); this scan covers what is no import: a
 * `require` made at run time and the `process` global. The core entry's bundle (test/core-bundle.test.ts) checks
 * what src/core.ts reaches.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ADAPTERS = ['src/node/', 'src/pool/', 'src/cli/'];

/** What the core may not contain, each with the reason it names in a failure. */
const RULES: readonly { readonly what: string; readonly pattern: RegExp }[] = [
  { what: 'calls require', pattern: /\b(require|createRequire)\s*\(/ },
  // A use (`process.env`, `process.exit(…)`), not the word ending a sentence of a comment.
  { what: 'uses process', pattern: /\bprocess\.[A-Za-z_$]/ },
];

/** `file:line: what` for every line of `text` that breaks a rule. */
function offences(file: string, text: string): string[] {
  const out: string[] = [];
  text.split('\n').forEach((line, i) => {
    for (const rule of RULES) if (rule.pattern.test(line)) out.push(`${file}:${i + 1}: ${rule.what}`);
  });
  return out;
}

/** Every .ts file under `dir`, as `/`-separated paths relative to the repository root. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return e.name.endsWith('.ts') ? [relative(ROOT, path).split(sep).join('/')] : [];
  });
}

describe('the core is free of Node', () => {
  it('the rules catch each form and leave prose alone', () => {
    const bad = [
      "const c = createRequire(import.meta.url)('compromise');",
      'const seed = process.env.SACREBLEU_SEED;',
      'if (fault) process.exit(70);',
    ];
    for (const line of bad) expect(offences('f.ts', line), line).not.toEqual([]);
    const fine = [
      '// compiled once per build and process.',
      " * the words 'piscinae' and 'requirement' (require is a Node function).",
      'const processed = preprocess(text);',
      "import { decodeLines } from '../corpus/read-lines.js';",
    ];
    for (const line of fine) expect(offences('f.ts', line), line).toEqual([]);
  });

  it('no file outside src/node, src/pool and src/cli breaks a rule', () => {
    const files = sources(join(ROOT, 'src')).filter((f) => !ADAPTERS.some((a) => f.startsWith(a)));
    expect(files).toContain('src/core.ts');
    expect(files).toContain('src/wasm/load.ts');
    expect(files.flatMap((f) => offences(f, readFileSync(join(ROOT, f), 'utf8')))).toEqual([]);
  });
});
