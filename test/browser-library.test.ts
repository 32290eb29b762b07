/**
 * The browser library `palette-mt/browser` (src/web.ts): built as `npm run build` builds it (scripts/build-browser.mjs)
 * — esbuild reports nothing and no Node module is in the bundle — and, in headless Chromium, it scores the small
 * golden fixtures (test/fixtures/bleu: WMT17 and WMT21 heads, one and three references; test/fixtures/report: two
 * systems) with BLEU, chrF, TER and ROUGE-L exactly as the Node library does: the same scores, verbose strings and
 * signatures, byte for byte, from `File`s, `ArrayBuffer`s and strings, on a pool of Web Workers and in the page's
 * thread alone. Bad inputs give the CLI's messages.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIN_POOL_WORK } from '../src/engine/corpus/index.js';
import { defaultRegistry } from '../src/metrics/registry.js';
import { readLines } from '../src/node/read-lines.js';
import { pyRstrip } from '../src/text/pystr.js';
import { CHROMIUM_SKIP, HAVE_CHROMIUM, launchChromium, serveStatic } from './helpers/chromium.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const METRICS = ['bleu', 'chrf', 'ter', 'rouge-l'];

interface Case {
  readonly name: string;
  readonly refs: readonly string[];
  readonly systems: readonly string[];
}
const CASES: readonly Case[] = [
  { name: 'wmt17 head', refs: ['bleu/wmt17-head.ref.de'], systems: ['bleu/wmt17-head.LIUM-NMT.4900.de'] },
  {
    name: 'wmt21 head, 3 references',
    refs: ['bleu/wmt21-head.ref.A.de', 'bleu/wmt21-head.ref.C.de', 'bleu/wmt21-head.ref.D.de'],
    systems: ['bleu/wmt21-head.Facebook-AI.de', 'bleu/wmt17-head.LIUM-NMT.4900.de'],
  },
  { name: 'report fixture', refs: ['report/ref.txt'], systems: ['report/sys-good.de', 'report/sys-bad.de'] },
];

/** What the Node library gives: per system, per metric, the CLI's numbers (lines read and rstripped as the CLI). */
function nodeScores(c: Case, lines = (f: string) => readLines(join(ROOT, 'test/fixtures', f)).map(pyRstrip)): string {
  const refs = c.refs.map(lines);
  const systems = c.systems.map((f) => {
    const hyps = lines(f).slice(0, refs[0].length);
    return {
      name: f,
      scores: METRICS.map((m) => {
        const id = defaultRegistry.resolve!(m, {});
        const cli = defaultRegistry.create(id, {});
        const score = cli.corpusScore(cli.metric.segmentStats(hyps, cli.metric.prepareReferences(refs)));
        return { metric: id, name: score.name, score: score.score, verbose: score.verboseScore, signature: cli.signature(refs.length, false) };
      }),
    };
  });
  return JSON.stringify(systems);
}

let buildDir = '';
let built: { outdir: string; result: { errors: unknown[]; warnings: unknown[]; metafile: { inputs: Record<string, unknown> } } }[] = [];

beforeAll(async () => {
  buildDir = mkdtempSync(join(tmpdir(), 'palette-browser-lib-'));
  const { buildBrowser } = (await import(join(ROOT, 'scripts/build-browser.mjs'))) as { buildBrowser(out: string): Promise<typeof built> };
  built = await buildBrowser(buildDir);
}, 120_000);

afterAll(() => {
  if (buildDir !== '') rmSync(buildDir, { recursive: true, force: true });
});

describe('the browser bundle', () => {
  it('builds with no esbuild error or warning, and takes no Node built-in, adapter or pool module', () => {
    const lib = built.find((b) => b.outdir.endsWith(join('dist', 'web')))!;
    expect(lib).toBeDefined();
    for (const { result } of built) {
      expect(result.errors).toEqual([]);
      expect(result.warnings).toEqual([]);
      const inputs = Object.keys(result.metafile.inputs);
      expect(inputs).toContain('src/wasm/load.ts');
      expect(inputs.filter((f) => f.startsWith('node:') || /^src\/(node|pool)\//.test(f) || /node_modules\/piscina\//.test(f))).toEqual([]);
    }
    for (const file of ['palette.js', 'palette-worker.js']) {
      const code = readFileSync(join(lib.outdir, file), 'utf8');
      expect(code).not.toMatch(/["']node:/);
      expect(code).not.toMatch(/\brequire\(/);
    }
    expect(readFileSync(join(lib.outdir, 'release.wasm'))).toEqual(readFileSync(join(ROOT, 'build/release.wasm')));
  });
});

describe.skipIf(!HAVE_CHROMIUM)(`the browser library in headless Chromium (${CHROMIUM_SKIP.replace('skipped: ', 'skipped without it: ')})`, () => {
  let browser: Browser;
  let page: Page;
  let server: Awaited<ReturnType<typeof serveStatic>>;
  const fixtures: Record<string, string> = {};

  beforeAll(async () => {
    for (const c of CASES) for (const f of [...c.refs, ...c.systems]) fixtures[f] = readFileSync(join(ROOT, 'test/fixtures', f), 'latin1');
    // The page imports the library as a user's page would, and keeps it on `window.lib` for the tests.
    writeFileSync(
      join(buildDir, 'dist/web/test.html'),
      '<!doctype html><title>palette-mt/browser</title><script type="module">' +
        "import * as lib from './palette.js'; await lib.loadWasm(); window.lib = lib;</script>",
    );
    server = await serveStatic(join(buildDir, 'dist/web'));
    browser = await launchChromium();
    page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${server.url}test.html`);
    await page.waitForFunction('window.lib !== undefined', { timeout: 20_000 });
    expect(errors).toEqual([]);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /**
   * Scores a case in the page; `form` says how inputs are handed over, `workers` how many threads may score, and
   * `minPoolWork` below what work no pool starts (0: always one; 'default': the library's own). `started` counts
   * the Web Workers constructed meanwhile.
   */
  async function scoreInPage(
    c: Case,
    form: 'file' | 'buffer' | 'string',
    workers: number,
    minPoolWork: number | 'default' = 0,
  ): Promise<{ json: string; threads: number; progress: number; started: number }> {
    const bytes = Object.fromEntries([...c.refs, ...c.systems].map((f) => [f, fixtures[f]]));
    return page.evaluate(
      async (c, bytes, form, workers, metrics, minPoolWork) => {
        // eslint-disable-next-line @typescript-eslint/no-explicit-any
        const lib = (globalThis as any).lib;
        const raw = (f: string): Uint8Array => Uint8Array.from(bytes[f], (ch: string) => ch.charCodeAt(0));
        const input = (f: string): unknown =>
          form === 'file' ? new File([raw(f)], f) : form === 'buffer' ? raw(f).buffer : new TextDecoder().decode(raw(f));
        let progress = 0;
        const refs = c.refs.map((f: string) => ({ name: f, input: input(f) }));
        const nRef = new TextDecoder().decode(raw(c.refs[0])).split('\n').length - 1;
        // The second case's other system is longer: it is cut to the references' length here and in Node.
        const systems = c.systems.map((f: string) => {
          const text = new TextDecoder().decode(raw(f)).split('\n').slice(0, nRef).join('\n') + '\n';
          const cut = new TextEncoder().encode(text);
          return { name: f, input: form === 'file' ? new File([cut], f) : form === 'buffer' ? cut.buffer : text };
        });
        const g = globalThis as any;
        const RealWorker = g.Worker;
        let started = 0;
        g.Worker = new Proxy(RealWorker, {
          construct(target, args) {
            started++;
            return Reflect.construct(target, args);
          },
        });
        try {
          const r = await lib.scoreCorpora(systems, refs, {
            metrics,
            workers,
            pool: workers > 1 ? lib.webWorkerPool() : undefined,
            ...(minPoolWork === null ? {} : { minPoolWork }),
            onProgress: (p: { phase: string; done: number; total: number }) => {
              if (p.phase === 'score') progress = p.done / p.total;
            },
          });
          return { json: JSON.stringify(r.systems), threads: r.threads, progress, started };
        } finally {
          g.Worker = RealWorker;
        }
      },
      c,
      bytes,
      form,
      workers,
      METRICS,
      // undefined does not cross to the page; null stands for "not given".
      minPoolWork === 'default' ? null : minPoolWork,
    );
  }

  for (const c of CASES) {
    it(`${c.name}: BLEU, chrF, TER, ROUGE-L with signatures equal Node's, from Files on ${3} threads`, async () => {
      const nRef = readLines(join(ROOT, 'test/fixtures', c.refs[0])).length;
      const want = nodeScores(c, (f) => readLines(join(ROOT, 'test/fixtures', f)).slice(0, nRef).map(pyRstrip));
      const got = await scoreInPage(c, 'file', 3);
      expect(got.threads).toBe(3);
      expect(got.progress).toBe(1);
      expect(got.json).toBe(want);
      expect(got.json).toContain('nrefs:' + c.refs.length + '|');
    }, 60_000);
  }

  it("a small input given a pool is scored in the calling thread, as Node's engine decides (MIN_POOL_WORK): no Web Worker starts, the same bytes", async () => {
    for (const c of CASES) {
      const pooled = await scoreInPage(c, 'file', 3);
      expect([pooled.threads, pooled.started]).toEqual([3, 2]);
      const small = await scoreInPage(c, 'file', 3, 'default');
      expect([small.threads, small.started, small.progress]).toEqual([1, 0, 1]);
      expect(small.json).toBe(pooled.json);
    }
    // The threshold is the Node engine's constant, given to the browser library by the same core.
    expect(await page.evaluate('window.lib.MIN_POOL_WORK')).toBe(MIN_POOL_WORK);
  }, 60_000);

  it('ArrayBuffers and strings in the page thread alone give the same bytes', async () => {
    const c = CASES[1];
    const file = await scoreInPage(c, 'file', 3);
    for (const form of ['buffer', 'string'] as const) expect((await scoreInPage(c, form, 1)).json).toBe(file.json);
    expect((await scoreInPage(c, 'buffer', 1)).threads).toBe(1);
  }, 60_000);

  it("bad inputs give the CLI's messages", async () => {
    const messages = await page.evaluate(async () => {
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const lib = (globalThis as any).lib;
      const attempt = async (hyp: unknown, ref: unknown): Promise<string> => {
        try {
          await lib.scoreCorpora([{ name: 'hyp.txt', input: hyp }], [{ name: 'ref.txt', input: ref }], { metrics: ['bleu'] });
          return 'scored';
        } catch (err) {
          const e = err as { code: string; file?: string; line?: number; message: string };
          return `${e.code} ${e.file}:${e.line ?? ''} ${e.message}`;
        }
      };
      return [
        await attempt('a\nb\n', 'a\n'),
        await attempt(new File([Uint8Array.of(0x61, 0x0a, 0x62, 0xff, 0x0a)], 'x'), 'a\nb\n'),
        await attempt(new File([], 'x'), 'a\n'),
        await attempt('a\n', new ArrayBuffer(0)),
      ];
    });
    expect(messages).toEqual([
      'E_LINE_COUNT_MISMATCH hyp.txt: 2 hypotheses but 1 reference segments',
      'E_INVALID_UTF8 hyp.txt:2 invalid UTF-8: byte 0xff at byte offset 3 cannot be decoded',
      'E_EMPTY_INPUT hyp.txt: empty input (0 bytes): expected one segment per line',
      'E_EMPTY_INPUT ref.txt: empty input (0 bytes): expected one segment per line',
    ]);
  }, 30_000);
});
