/**
 * The Node host's copy of a string's UTF-16 code units into kernel memory (../wasm/wtf8.ts `Utf16Writer`):
 * `Buffer#write` with `utf16le` copies them as they are, lone surrogates included, without the transcoding and the
 * result object of `TextEncoder#encodeInto`.
 */
let buffer: ArrayBufferLike | null = null;
let view: Buffer = Buffer.alloc(0);

/** Writes the code units of `s` into the buffer of `out` at byte `at`. */
export function writeUtf16(s: string, out: Uint8Array, at: number): void {
  // One Buffer per memory buffer: a grown WebAssembly memory has a new one.
  if (out.buffer !== buffer) {
    buffer = out.buffer;
    view = Buffer.from(out.buffer);
  }
  view.write(s, out.byteOffset + at, 'utf16le');
}
