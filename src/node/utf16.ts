/**
 * The Node host's copy of a string's UTF-16 code units into kernel memory (../wasm/wtf8.ts `Utf16Writer`):
 * `Buffer#write` with `utf16le` copies them as they are, lone surrogates included, without the transcoding and the
 * result object of `TextEncoder#encodeInto`.
 */
let buffer: ArrayBufferLike | null = null;
let view: Buffer = Buffer.alloc(0);

/**
 * `Buffer#ucs2Write(string, offset)`: what `write(…, 'utf16le')` calls once it has looked the encoding up (Node's
 * buffer.js), called directly where Node has it; a run writes every hypothesis line through here, and the lookup
 * and argument checks of `write` cost about as much as the copy of a line.
 */
type Ucs2Buffer = Buffer & { ucs2Write(s: string, offset: number): number };
const direct = typeof (Buffer.prototype as Partial<Ucs2Buffer>).ucs2Write === 'function';

/** Writes the code units of `s` into the buffer of `out` at byte `at`. */
export function writeUtf16(s: string, out: Uint8Array, at: number): void {
  // One Buffer per memory buffer: a grown WebAssembly memory has a new one.
  if (out.buffer !== buffer) {
    buffer = out.buffer;
    view = Buffer.from(out.buffer);
  }
  if (direct) (view as Ucs2Buffer).ucs2Write(s, out.byteOffset + at);
  else view.write(s, out.byteOffset + at, 'utf16le');
}
