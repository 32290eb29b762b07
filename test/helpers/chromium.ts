/**
 * Headless Chromium for the browser suites, and the one place that decides whether it is here: the Debian package
 * `chromium` (/usr/bin/chromium, or `PALETTE_CHROMIUM`), driven by puppeteer-core, which uses the installed browser
 * and downloads none. Suites skip cleanly without it (`describe.skipIf(!HAVE_CHROMIUM)` with
 * {@link CHROMIUM_SKIP} in the title); nothing here launches anything on import. `.ci/run` installs the package.
 *
 * Also a tiny static server on 127.0.0.1 (a free port), since module workers and `fetch` of the kernels need
 * http:, not file:.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import type { Browser } from 'puppeteer-core';

/** The browser binary the suites drive. */
export const CHROMIUM: string = process.env.PALETTE_CHROMIUM || '/usr/bin/chromium';

/** Whether headless Chromium can be driven here. */
export const HAVE_CHROMIUM: boolean = existsSync(CHROMIUM);

/** What a suite's title says when it skips. */
export const CHROMIUM_SKIP = `skipped: no Chromium at ${CHROMIUM} (apt-get install chromium)`;

/** Starts headless Chromium (no sandbox: CI runs as root). */
export async function launchChromium(): Promise<Browser> {
  const puppeteer = await import('puppeteer-core');
  return puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
};

/** A static server of `root` on 127.0.0.1 at a free port; `url` ends with `/`. */
export async function serveStatic(root: string): Promise<{ url: string; close(): Promise<void>; server: Server }> {
  const base = normalize(root + sep);
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    let file = normalize(join(base, path));
    if (!file.startsWith(base)) {
      res.writeHead(403).end();
      return;
    }
    if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
    if (!existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
    res.end(readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    server,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
