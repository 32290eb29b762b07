/**
 * The NPY format (numpy's `.npy`, version 1.0) for a C-order array (a matrix, or a stack of them) of little-endian doubles, header byte for byte as
 * `numpy.save` writes it: the magic `\x93NUMPY`, version 1.0, the header length (uint16, little-endian), then the
 * header dict `{'descr': '<f8', 'fortran_order': False, 'shape': (R, C), }` (or any other shape) followed by the spare spaces numpy leaves
 * for growing the first axis in place (up to 21 digits), padded with spaces and ended by a newline so that the data
 * starts at a multiple of 64 bytes. The data follows, row after row.
 */

/** numpy's alignment of the data start. */
const ARRAY_ALIGN = 64;
/** numpy's room for the first axis' length to grow in place (`GROWTH_AXIS_MAX_DIGITS`). */
const GROWTH_AXIS_MAX_DIGITS = 21;
const MAGIC = [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0];

/** The header of a `rows × columns` matrix of `<f8` in C order (the bytes before the data). */
export function npyHeader(rows: number, columns: number): Uint8Array {
  return npyArrayHeader([rows, columns]);
}

/** The header of an array of `<f8` of any shape (at least one axis) in C order. */
export function npyArrayHeader(shape: readonly number[]): Uint8Array {
  if (shape.length === 0 || !shape.every((n) => Number.isSafeInteger(n) && n >= 0)) {
    throw new RangeError(`an array shape must be one or more non-negative integers (got ${shape.join(' × ')})`);
  }
  // Python's repr of the shape tuple: `(3,)`, `(3, 4)`, `(2, 3, 4)`.
  const tuple = shape.length === 1 ? `(${shape[0]},)` : `(${shape.join(', ')})`;
  let dict = `{'descr': '<f8', 'fortran_order': False, 'shape': ${tuple}, }`;
  dict += ' '.repeat(Math.max(0, GROWTH_AXIS_MAX_DIGITS - String(shape[0]).length));
  const hlen = dict.length + 1;
  const padlen = ARRAY_ALIGN - ((MAGIC.length + 2 + hlen) % ARRAY_ALIGN);
  const total = hlen + padlen;
  const out = new Uint8Array(MAGIC.length + 2 + total);
  out.set(MAGIC, 0);
  out[8] = total & 0xff;
  out[9] = total >>> 8;
  for (let i = 0; i < dict.length; i++) out[10 + i] = dict.charCodeAt(i);
  out.fill(0x20, 10 + dict.length, out.length - 1);
  out[out.length - 1] = 0x0a;
  return out;
}

/** The bytes of `values` as little-endian doubles (the data of an NPY file). */
export function npyData(values: Float64Array): Uint8Array {
  const bytes = new Uint8Array(values.length * 8);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < values.length; i++) view.setFloat64(i * 8, values[i], true);
  return bytes;
}
