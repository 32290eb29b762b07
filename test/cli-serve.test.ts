/**
 * `palette serve`: serves the built scoring page (dist/site/) on 127.0.0.1, prints its URL, answers the page's files
 * with their types (the kernels as application/wasm, so that browsers compile them while they download) and nothing
 * outside the folder; a bad port is refused with exit 2; --help and `palette --help` describe it.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../src/cli/main.js';
import { runServeCommand, startSiteServer } from '../src/cli/serve/command.js';

function io(): { out: () => string; err: () => string; io: Parameters<typeof runServeCommand>[1] } {
  let out = '';
  let err = '';
  return {
    out: () => out,
    err: () => err,
    io: { stdout: { write: (t: string) => (out += t) }, stderr: { write: (t: string) => (err += t) }, env: {} },
  };
}

describe('palette serve', () => {
  let dir = '';
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'palette-serve-'));
    mkdirSync(join(dir, 'site'));
    writeFileSync(join(dir, 'site/index.html'), '<!doctype html><title>page</title>');
    writeFileSync(join(dir, 'site/release.wasm'), Uint8Array.of(0, 0x61, 0x73, 0x6d));
    writeFileSync(join(dir, 'secret.txt'), 'not served');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('serves the folder on 127.0.0.1 with the types the page needs, and nothing outside it', async () => {
    const { server, url } = await startSiteServer(0, join(dir, 'site'));
    try {
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
      const index = await fetch(url);
      expect(index.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(await index.text()).toContain('<title>page</title>');
      const wasm = await fetch(url + 'release.wasm');
      expect(wasm.headers.get('content-type')).toBe('application/wasm');
      expect(new Uint8Array(await wasm.arrayBuffer())).toEqual(Uint8Array.of(0, 0x61, 0x73, 0x6d));
      for (const path of ['../secret.txt', '%2e%2e/secret.txt', 'missing.js']) expect((await fetch(url + path)).status).toBe(404);
      expect((await fetch(url, { method: 'POST' })).status).toBe(405);
    } finally {
      server.close();
    }
  });

  it('prints the URL of the built page and serves until closed', async () => {
    const t = io();
    let server: Server | undefined;
    const done = runServeCommand(['--port', '0'], t.io, (s) => {
      server = s;
    });
    await new Promise<void>((resolve) => {
      const wait = (): void => void (server === undefined ? setTimeout(wait, 10) : resolve());
      wait();
    });
    const url = /http:\/\/127\.0\.0\.1:\d+\//.exec(t.out())![0];
    expect(t.out()).toBe(`palette serve: the scoring page is at ${url} (Ctrl-C stops)\n`);
    const page = await (await fetch(url)).text();
    expect(page).toContain('<label for="refs-files">');
    server!.close();
    expect(await done).toBe(0);
  });

  it('refuses a bad port or a busy one with exit 2', async () => {
    for (const [args, message] of [
      [['--port', '70000'], /--port/],
      [['--port', 'x'], /--port/],
      [['extra'], /unexpected argument "extra"/],
    ] as const) {
      const t = io();
      expect(await runServeCommand([...args], t.io)).toBe(2);
      expect(t.err()).toMatch(/^palette serve: error: /);
      expect(t.err()).toMatch(message);
    }
    const { server, url } = await startSiteServer(0, join(dir, 'site'));
    try {
      const port = new URL(url).port;
      const t = io();
      expect(await runServeCommand(['--port', port], t.io)).toBe(2);
      expect(t.err()).toBe(`palette serve: error: port ${port} on 127.0.0.1 is in use: give another with --port N (0: any free port)\n`);
    } finally {
      server.close();
    }
  });

  it('--help describes it, and palette --help lists it', async () => {
    const t = io();
    expect(await runServeCommand(['--help'], t.io)).toBe(0);
    expect(t.out()).toMatch(/^usage: palette serve \[--port N\]/);
    expect(t.out()).toContain('--port N');
    const m = io();
    await run(['--help'], m.io);
    expect(m.out()).toMatch(/\n {2}serve {5}the offline scoring page/);
  });
});
