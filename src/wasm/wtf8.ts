/**
 * JavaScript strings as bytes for the kernels: UTF-8, and WTF-8 (generalized UTF-8: a lone surrogate as the three
 * bytes its code point would take) where a string holds a lone surrogate, which UTF-8 cannot carry and
 * `TextEncoder` would replace by U+FFFD (two different strings would then give the same bytes). WTF-8 is UTF-8 on
 * well-formed strings and one-to-one on all strings, so byte equality is string equality either way.
 */

const encoder = new TextEncoder();
const nativeWellFormed = (String.prototype as { isWellFormed?: (this: string) => boolean }).isWellFormed;

/** Whether `s` holds no lone surrogate, by a scan of its code units (the fallback of {@link isWellFormedUtf16}). */
export function scanWellFormed(s: string): boolean {
  for (let k = 0; k < s.length; k++) {
    const c = s.charCodeAt(k);
    if (c < 0xd800 || c > 0xdfff) continue;
    if (c > 0xdbff) return false;
    const next = k + 1 < s.length ? s.charCodeAt(k + 1) : 0;
    if (next < 0xdc00 || next > 0xdfff) return false;
    k++;
  }
  return true;
}

/** Whether `s` holds no lone surrogate (`String.prototype.isWellFormed` where the platform has it). */
export function isWellFormedUtf16(s: string): boolean {
  return nativeWellFormed !== undefined ? nativeWellFormed.call(s) : scanWellFormed(s);
}

/**
 * Writes the UTF-16 code units of `s`, little-endian, into the buffer of `out` at byte `at` (room for
 * `2 · s.length` bytes needed). A host that has such a copy sets it ({@link setUtf16Writer}): the kernels then
 * encode a line's code units themselves, which costs less than `TextEncoder` and needs no well-formedness check.
 */
export type Utf16Writer = (s: string, out: Uint8Array, at: number) => void;

let utf16Writer: Utf16Writer | null = null;

/** Sets (or, with null, removes) the host's {@link Utf16Writer}. */
export function setUtf16Writer(writer: Utf16Writer | null): void {
  utf16Writer = writer;
}

/** The host's {@link Utf16Writer}, if it set one. */
export function getUtf16Writer(): Utf16Writer | null {
  return utf16Writer;
}

/** Writes the WTF-8 bytes of `s` at `out[at]` (room for `3 · s.length` bytes needed); returns how many. */
export function encodeWtf8Into(s: string, out: Uint8Array, at: number): number {
  let p = at;
  for (let k = 0; k < s.length; k++) {
    let c = s.charCodeAt(k);
    if (c < 0x80) {
      out[p++] = c;
      continue;
    }
    if (c < 0x800) {
      out[p++] = 0xc0 | (c >> 6);
      out[p++] = 0x80 | (c & 0x3f);
      continue;
    }
    if (c >= 0xd800 && c <= 0xdbff && k + 1 < s.length) {
      const d = s.charCodeAt(k + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
        k++;
        out[p++] = 0xf0 | (c >> 18);
        out[p++] = 0x80 | ((c >> 12) & 0x3f);
        out[p++] = 0x80 | ((c >> 6) & 0x3f);
        out[p++] = 0x80 | (c & 0x3f);
        continue;
      }
    }
    out[p++] = 0xe0 | (c >> 12);
    out[p++] = 0x80 | ((c >> 6) & 0x3f);
    out[p++] = 0x80 | (c & 0x3f);
  }
  return p - at;
}

/**
 * Writes the bytes of `s` at `out[at]` (room for `3 · s.length` bytes needed): UTF-8 by the platform's encoder
 * when `s` is well-formed, else WTF-8. Returns how many.
 */
export function encodeStringInto(s: string, out: Uint8Array, at: number): number {
  if (!isWellFormedUtf16(s)) return encodeWtf8Into(s, out, at);
  return encoder.encodeInto(s, out.subarray(at, at + 3 * s.length)).written;
}

/** The string of WTF-8 bytes `bytes[start .. end)` (bytes as {@link encodeWtf8Into} writes them; not validated). */
export function decodeWtf8(bytes: Uint8Array, start: number, end: number): string {
  let text = '';
  const units: number[] = [];
  let p = start;
  while (p < end) {
    const b = bytes[p];
    if (b < 0x80) {
      units.push(b);
      p += 1;
    } else if (b < 0xe0) {
      units.push(((b & 0x1f) << 6) | (bytes[p + 1] & 0x3f));
      p += 2;
    } else if (b < 0xf0) {
      units.push(((b & 0x0f) << 12) | ((bytes[p + 1] & 0x3f) << 6) | (bytes[p + 2] & 0x3f));
      p += 3;
    } else {
      const c = ((b & 0x07) << 18) | ((bytes[p + 1] & 0x3f) << 12) | ((bytes[p + 2] & 0x3f) << 6) | (bytes[p + 3] & 0x3f);
      units.push(0xd800 + ((c - 0x10000) >> 10), 0xdc00 + ((c - 0x10000) & 0x3ff));
      p += 4;
    }
    // Bounded argument lists for fromCharCode.
    if (units.length >= 4096) {
      text += String.fromCharCode(...units);
      units.length = 0;
    }
  }
  return text + String.fromCharCode(...units);
}
