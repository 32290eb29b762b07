/**
 * The portable stand-ins of the core for what Node's modules gave it: SHA-256 and base64 (node:crypto), file
 * names and extensions (node:path), ISO-8859-1 decoding (Buffer). Each must give Node's answer exactly, since
 * signatures, the report's CSP hash and system-name matching depend on it.
 */
import { createHash } from 'node:crypto';
import { posix } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeXml } from '../src/corpus/rouge/xml.js';
import { baseName, extName } from '../src/util/path-name.js';
import { Sha256, sha256Utf8, toBase64, toHex } from '../src/util/sha256.js';

/** Deterministic bytes (a small LCG), so a failure names a reproducible length. */
function bytesOf(n: number, seed: number): Uint8Array {
  const out = new Uint8Array(n);
  let x = seed >>> 0;
  for (let i = 0; i < n; i++) {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}

describe('SHA-256', () => {
  it("equals node:crypto's digest for every length across the padding boundaries (0..300 bytes)", () => {
    for (let n = 0; n <= 300; n++) {
      const data = bytesOf(n, n + 1);
      expect(toHex(new Sha256().update(data).digest()), `length ${n}`).toBe(
        createHash('sha256').update(data).digest('hex'),
      );
    }
  });

  it('gives the same digest however the message is cut into updates', () => {
    const data = bytesOf(5000, 7);
    const whole = createHash('sha256').update(data).digest('hex');
    for (const step of [1, 3, 63, 64, 65, 1000]) {
      const h = new Sha256();
      for (let at = 0; at < data.length; at += step) h.update(data.subarray(at, at + step));
      expect(toHex(h.digest()), `updates of ${step}`).toBe(whole);
    }
  });

  it("hashes text as node:crypto's 'utf8' does, a lone surrogate as U+FFFD", () => {
    for (const text of ['', 'abc', 'Grüße, 世界 😀', 'a\uD800b', 'x'.repeat(1000)]) {
      expect(toHex(sha256Utf8(text))).toBe(createHash('sha256').update(text, 'utf8').digest('hex'));
    }
  });

  it("writes base64 as Node's Buffer does, padding included", () => {
    for (let n = 0; n <= 10; n++) {
      const data = bytesOf(n, 99 + n);
      expect(toBase64(data)).toBe(Buffer.from(data).toString('base64'));
    }
  });
});

describe('file names', () => {
  const paths = [
    '', '/', '//', 'a', 'a/', 'a//', '/a/b', 'systems/Online-B.de', 'a/b.de/', '.bashrc', 'x/.bashrc', '.', '..',
    '...', 'x/..', 'a.', 'a..', '.a.b', '..a', 'b.tar.gz', 'dir.d/file', 'a\\b.c',
  ];

  it('baseName and extName give path.posix.basename and extname', () => {
    for (const p of paths) {
      expect(baseName(p), JSON.stringify(p)).toBe(posix.basename(p));
      const name = posix.basename(p);
      expect(extName(name), JSON.stringify(name)).toBe(posix.extname(name));
    }
  });
});

describe('ISO-8859-1 XML', () => {
  it('maps every byte to the code point of its number, 0x80-0x9F included (not windows-1252)', () => {
    const head = new TextEncoder().encode('<?xml version="1.0" encoding="ISO-8859-1"?>');
    const body = Uint8Array.from({ length: 256 }, (_, i) => i);
    const bytes = new Uint8Array([...head, ...body]);
    expect(decodeXml(bytes, 'f.xml')).toBe(Buffer.from(bytes).toString('latin1'));
    expect(decodeXml(bytes, 'f.xml').charCodeAt(head.length + 0x80)).toBe(0x80);
  });
});
