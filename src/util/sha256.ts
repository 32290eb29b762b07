/**
 * SHA-256 (FIPS 180-4) in plain TypeScript, for the few digests the portable core needs (a paraphrase table's
 * identity in signatures, the report's Content-Security-Policy hash) on platforms without `node:crypto`; Web
 * Crypto's digest is asynchronous, and these callers are not. Large files are hashed by the Node adapter with
 * `node:crypto`, whose digests are the same.
 */

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
]);

const INITIAL = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];

/** An incremental SHA-256: {@link Sha256.update} any number of times, then {@link Sha256.digest} once. */
export class Sha256 {
  private readonly state = Uint32Array.from(INITIAL);
  private readonly block = new Uint8Array(64);
  private readonly w = new Uint32Array(64);
  private filled = 0;
  private bytes = 0;

  /** Adds `data` to the message. */
  update(data: Uint8Array): this {
    let at = 0;
    this.bytes += data.length;
    if (this.filled > 0) {
      const take = Math.min(64 - this.filled, data.length);
      this.block.set(data.subarray(0, take), this.filled);
      this.filled += take;
      at = take;
      if (this.filled < 64) return this;
      this.compress(this.block, 0);
      this.filled = 0;
    }
    for (; at + 64 <= data.length; at += 64) this.compress(data, at);
    this.block.set(data.subarray(at), 0);
    this.filled = data.length - at;
    return this;
  }

  /** The 32-byte digest of everything added. */
  digest(): Uint8Array {
    const bits = this.bytes * 8;
    const tail = new Uint8Array((this.filled < 56 ? 64 : 128) - this.filled);
    tail[0] = 0x80;
    // The length in bits, big-endian in the last 8 bytes (exact below 2^53 bits).
    const high = Math.floor(bits / 0x100000000);
    const n = tail.length;
    tail[n - 8] = high >>> 24;
    tail[n - 7] = high >>> 16;
    tail[n - 6] = high >>> 8;
    tail[n - 5] = high;
    tail[n - 4] = bits >>> 24;
    tail[n - 3] = bits >>> 16;
    tail[n - 2] = bits >>> 8;
    tail[n - 1] = bits;
    this.update(tail);
    const out = new Uint8Array(32);
    for (let i = 0; i < 8; i++) {
      const v = this.state[i];
      out[4 * i] = v >>> 24;
      out[4 * i + 1] = v >>> 16;
      out[4 * i + 2] = v >>> 8;
      out[4 * i + 3] = v;
    }
    return out;
  }

  private compress(data: Uint8Array, at: number): void {
    const w = this.w;
    for (let i = 0; i < 16; i++) {
      const j = at + 4 * i;
      w[i] = (data[j] << 24) | (data[j + 1] << 16) | (data[j + 2] << 8) | data[j + 3];
    }
    for (let i = 16; i < 64; i++) {
      const a = w[i - 15];
      const b = w[i - 2];
      const s0 = ((a >>> 7) | (a << 25)) ^ ((a >>> 18) | (a << 14)) ^ (a >>> 3);
      const s1 = ((b >>> 17) | (b << 15)) ^ ((b >>> 19) | (b << 13)) ^ (b >>> 10);
      w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    const s = this.state;
    let a = s[0];
    let b = s[1];
    let c = s[2];
    let d = s[3];
    let e = s[4];
    let f = s[5];
    let g = s[6];
    let h = s[7];
    for (let i = 0; i < 64; i++) {
      const s1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
      const ch = (e & f) ^ (~e & g);
      const t1 = (h + s1 + ch + K[i] + w[i]) | 0;
      const s0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
      const maj = (a & b) ^ (a & c) ^ (b & c);
      const t2 = (s0 + maj) | 0;
      h = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) | 0;
    }
    s[0] += a;
    s[1] += b;
    s[2] += c;
    s[3] += d;
    s[4] += e;
    s[5] += f;
    s[6] += g;
    s[7] += h;
  }
}

const utf8 = new TextEncoder();

/** SHA-256 of the UTF-8 encoding of `text` (a lone surrogate encodes as U+FFFD, as Node's `'utf8'` does). */
export function sha256Utf8(text: string): Uint8Array {
  return new Sha256().update(utf8.encode(text)).digest();
}

/** Lower-case hexadecimal of `bytes`. */
export function toHex(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) out += b.toString(16).padStart(2, '0');
  return out;
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Standard base64 (RFC 4648, `+/`, with `=` padding) of `bytes`. */
export function toBase64(bytes: Uint8Array): string {
  let out = '';
  let i = 0;
  for (; i + 3 <= bytes.length; i += 3) {
    const v = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
    out += BASE64[v >>> 18] + BASE64[(v >>> 12) & 63] + BASE64[(v >>> 6) & 63] + BASE64[v & 63];
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const v = bytes[i] << 16;
    out += `${BASE64[v >>> 18]}${BASE64[(v >>> 12) & 63]}==`;
  } else if (rest === 2) {
    const v = (bytes[i] << 16) | (bytes[i + 1] << 8);
    out += `${BASE64[v >>> 18]}${BASE64[(v >>> 12) & 63]}${BASE64[(v >>> 6) & 63]}=`;
  }
  return out;
}
