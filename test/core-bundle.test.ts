/**
 * The core entry (src/core.ts, `palette-mt/core`) runs without Node: esbuild bundles it for the browser without an
 * error, the bundle names no Node module and no Node global, and once handed the bytes of build/release.wasm it
 * scores exactly as the Node entry does. The Node entry (src/index.ts) loads the kernels by itself, as before the
 * split; the core alone does not, and says so.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type BuildResult, type Metafile } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Bleu, Chrf, corpusScore, readLines, scoreNbest, type Metric, type PreparedReferences } from '../src/index.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** What the bundled core exports and this test calls. */
interface BundledCore {
  initWasm(source: Uint8Array): void;
  Bleu: typeof Bleu;
  Chrf: typeof Chrf;
  corpusScore: typeof corpusScore;
  scoreNbest: typeof scoreNbest;
}

/** The bundle cut into its modules, at the `// path` line esbuild writes before each. */
function moduleSections(bundle: string): { path: string; text: string }[] {
  const marks = [...bundle.matchAll(/^\/\/ (\S+)$/gm)];
  return marks.map((m, i) => ({ path: m[1], text: bundle.slice(m.index!, i + 1 < marks.length ? marks[i + 1].index : bundle.length) }));
}

let dir = '';
let code = '';
let inputs: Metafile['inputs'] = {};
let result: BuildResult;

beforeAll(async () => {
  result = await build({
    entryPoints: [join(ROOT, 'src/core.ts')],
    absWorkingDir: ROOT,
    bundle: true,
    platform: 'browser',
    format: 'esm',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  code = result.outputFiles![0].text;
  inputs = result.metafile!.inputs;
  dir = mkdtempSync(join(tmpdir(), 'palette-core-bundle-'));
  writeFileSync(join(dir, 'core.mjs'), code);
}, 60_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the core entry bundled for the browser', () => {
  it('builds without errors or warnings', () => {
    expect(result.errors).toEqual([]);
    expect(result.warnings).toEqual([]);
  });

  it('takes no module from the Node adapter, the pools or the CLI, and no Node built-in', () => {
    const files = Object.keys(inputs);
    expect(files).toContain('src/core.ts');
    expect(files.filter((f) => /^src\/(node|pool|cli)\//.test(f) || f.startsWith('node:'))).toEqual([]);
  });

  it('names no Node module and no Node-only global', () => {
    expect(code).not.toMatch(/["']node:/);
    expect(code).not.toMatch(/["']piscina["']/);
    expect(code).not.toMatch(/\brequire\(/);
    // Uses of the globals (`Buffer.from`, `process.env`), not the words in a message: none in Palette's own modules;
    // a package's module (msgpackr) may use one only where it first asks whether the global is there.
    const modules = moduleSections(code);
    expect(modules.length).toBeGreaterThan(100);
    for (const { path, text } of modules) {
      for (const global of ['Buffer', 'process']) {
        if (!new RegExp(`\\b${global}\\.[A-Za-z_$]`).test(text)) continue;
        const guarded = new RegExp(`typeof ${global} !== ["']undefined["']`).test(text);
        expect({ path, global, guarded: /(^|\/)node_modules\//.test(path) && guarded }).toEqual({ path, global, guarded: true });
      }
    }
    expect(code).not.toMatch(/\b(__dirname|__filename)\b/);
  });

  it('scores BLEU and chrF with supplied kernel bytes exactly as the Node entry does', async () => {
    const core = (await import(pathToFileURL(join(dir, 'core.mjs')).href)) as BundledCore;
    const hyps = readLines(join(ROOT, 'samples/wmt17-en-de/sys/online-B.0.de')).slice(0, 50);
    const refs = readLines(join(ROOT, 'samples/wmt17-en-de/ref.de')).slice(0, 50);

    // Without kernels the bundle cannot score: it reads no file itself.
    let refused: unknown;
    try {
      core.corpusScore(new core.Bleu(), hyps, [refs]);
    } catch (err) {
      refused = err;
    }
    expect(refused).toMatchObject({ code: 'E_WASM', message: expect.stringMatching(/not loaded: call initWasm\(\)/) });

    core.initWasm(readFileSync(join(ROOT, 'build/release.wasm')));
    const pairs: [Metric<PreparedReferences>, Metric<PreparedReferences>][] = [
      [new core.Bleu(), new Bleu()],
      [new core.Chrf(), new Chrf()],
    ];
    for (const [bundled, node] of pairs) {
      const got = core.corpusScore(bundled, hyps, [refs]);
      const want = corpusScore(node, hyps, [refs]);
      expect(got.score).toBeGreaterThan(0);
      expect({ score: got.score, verbose: got.verboseScore }).toEqual({ score: want.score, verbose: want.verboseScore });
    }

    // The engine's n-best scoring (the fused fast path and the per-metric one) in this thread, from the bundle.
    const list = hyps.flatMap((h, s) => [h, refs[(s + 1) % refs.length]].map((c, k) => `${s} ||| ${c} ||| f= ${k} ||| 0`)).join('\n') + '\n';
    for (const metrics of [['bleu', 'rouge-l', 'wer'], ['chrf', 'ter']]) {
      const bytesOf = async (score: typeof scoreNbest): Promise<string> => {
        const parts: Uint8Array[] = [];
        await score(list, { metrics, references: [refs], format: 'json', output: (b) => parts.push(b.slice()) });
        return Buffer.concat(parts).toString('utf8');
      };
      const got = await bytesOf(core.scoreNbest);
      expect(got.split('\n').length).toBeGreaterThan(100);
      expect(got).toBe(await bytesOf(scoreNbest));
    }
  });
});

describe('entries in a fresh Node process (no test set-up)', () => {
  it('src/core.ts alone refuses to score without kernels; src/index.ts loads them from build/', () => {
    const script = `
      const core = await import(${JSON.stringify(pathToFileURL(join(ROOT, 'src/core.ts')).href)});
      const hyps = ['the cat sat on the mat'];
      const refs = [['the cat sat on a mat']];
      try { core.corpusScore(new core.Bleu(), hyps, refs); console.log('core: scored'); }
      catch (err) { console.log('core: ' + err.code); }
      const main = await import(${JSON.stringify(pathToFileURL(join(ROOT, 'src/index.ts')).href)});
      console.log('index: ' + main.corpusScore(new main.Bleu(), hyps, refs).score.toFixed(4));
    `;
    const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, PALETTE_WASM: '' },
    });
    const expected = corpusScore(new Bleu(), ['the cat sat on the mat'], [['the cat sat on a mat']]).score;
    expect(out.trim().split('\n')).toEqual(['core: E_WASM', `index: ${expected.toFixed(4)}`]);
  });
});
