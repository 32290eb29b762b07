/**
 * Python's number and JSON formatting, as sacrebleu's CLI output depends on it byte for byte:
 * `f'{x:.{w}f}'` (ties to even on the exact binary value, where JavaScript's `toFixed` rounds exact ties up;
 * re-exported from src/util/py-fixed.ts), `repr(float)` (shortest round-trip digits, exponent form outside
 * [1e-4, 1e16)), `float(str)`/`int(str)` parsing as `tabulate` applies it, and `json.dumps` with `indent` and
 * `ensure_ascii`.
 */

/** A JSON value as `json.dumps` writes it; a `number` is written as a Python float, a `bigint` as an int. */
export type PyJson = string | number | bigint | boolean | null | readonly PyJson[] | { readonly [key: string]: PyJson };

// `f'{x:.{w}f}'` is the formatter every printed number shares (src/util/py-fixed.ts); re-exported for the CLI's
// modules, tested against Python here.
export { pyFixed } from '../util/py-fixed.js';

/** Python `repr(x)` of a float: shortest round-trip digits; `1e-05`, `1e+16` outside [1e-4, 1e16). */
export function pyFloatRepr(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  const sign = x < 0 || Object.is(x, -0) ? '-' : '';
  if (x === 0) return `${sign}0.0`;
  // Where both print positional notation (Python: 1e-4 <= |x| < 1e16; JavaScript: 1e-7 <= |x| < 1e21) both print
  // the same shortest round-trip digits, and Python adds '.0' to integral values: the common case, without the
  // string surgery below (palette pairwise writes millions of them).
  const magnitude = Math.abs(x);
  if (magnitude >= 1e-4 && magnitude < 1e16) return Number.isInteger(x) ? `${x}.0` : `${x}`;
  // toExponential() without an argument gives the shortest digits that round-trip, like Python's repr.
  const [mant, exp] = Math.abs(x).toExponential().split('e');
  const digits = mant.replace('.', '');
  const e = Number(exp);
  const point = e + 1; // position of the decimal point relative to the first digit
  if (point > -4 && point <= 16) {
    if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
    if (point >= digits.length) return `${sign}${digits}${'0'.repeat(point - digits.length)}.0`;
    return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
  }
  const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
  return `${sign}${m}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
}

// Python's float()/int() accept surrounding whitespace and '_' between digits.
const PY_INT = /^\s*[+-]?\d(?:_?\d)*\s*$/;
const PY_FLOAT =
  /^\s*[+-]?(?:(?:\d(?:_?\d)*(?:\.(?:\d(?:_?\d)*)?)?|\.\d(?:_?\d)*)(?:[eE][+-]?\d(?:_?\d)*)?|inf(?:inity)?|nan)\s*$/i;

/** Python `int(s)` for a string, or `undefined` where Python raises `ValueError` (ASCII digits only). */
export function pyParseInt(s: string): number | undefined {
  return PY_INT.test(s) ? Number(s.trim().replace(/_/g, '')) : undefined;
}

/** Python `float(s)` for a string, or `undefined` where Python raises `ValueError` (ASCII digits only). */
export function pyParseFloat(s: string): number | undefined {
  if (!PY_FLOAT.test(s)) return undefined;
  const t = s.trim().replace(/_/g, '').toLowerCase();
  const unsigned = t.replace(/^[+-]/, '');
  if (unsigned.startsWith('inf')) return t.startsWith('-') ? -Infinity : Infinity;
  if (unsigned === 'nan') return NaN;
  return Number(t);
}

const SHORT_ESCAPES: Record<string, string> = {
  '"': '\\"',
  '\\': '\\\\',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
};

/** Python `json.dumps(s)` of a string; `ensureAscii` escapes everything outside printable ASCII as `\uXXXX`. */
export function pyJsonString(s: string, ensureAscii: boolean): string {
  const pattern = ensureAscii ? /["\\]|[^ -~]/g : /["\\\x00-\x1f]/g;
  const body = s.replace(pattern, (c) => {
    const short = SHORT_ESCAPES[c];
    if (short !== undefined) return short;
    // Lone code units of a surrogate pair are matched one by one, which is how Python writes astral characters.
    return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
  return `"${body}"`;
}

/**
 * Python `json.dumps(value, indent=indent, ensure_ascii=ensureAscii)`: with an indent, items end in `,` and nested
 * levels indent by `indent` spaces; without one, `', '` and `': '` separate on one line. Numbers are written as
 * Python floats (`22.7`, `100.0`, `NaN`, `Infinity`); a `bigint` is a Python int (`12`), for counts.
 */
export function pyJsonDumps(value: PyJson, options: { indent?: number; ensureAscii: boolean }): string {
  const { indent, ensureAscii } = options;
  const write = (v: PyJson, depth: number): string => {
    if (v === null) return 'null';
    if (typeof v === 'boolean') return v ? 'true' : 'false';
    if (typeof v === 'bigint') return v.toString();
    if (typeof v === 'number') {
      if (Number.isNaN(v)) return 'NaN';
      if (!Number.isFinite(v)) return v > 0 ? 'Infinity' : '-Infinity';
      return pyFloatRepr(v);
    }
    if (typeof v === 'string') return pyJsonString(v, ensureAscii);
    const entries: string[] = Array.isArray(v)
      ? (v as readonly PyJson[]).map((item) => write(item, depth + 1))
      : Object.entries(v).map(([k, item]) => `${pyJsonString(k, ensureAscii)}: ${write(item, depth + 1)}`);
    const [open, close] = Array.isArray(v) ? ['[', ']'] : ['{', '}'];
    if (entries.length === 0) return `${open}${close}`;
    if (indent === undefined) return `${open}${entries.join(', ')}${close}`;
    const inner = '\n' + ' '.repeat(indent * (depth + 1));
    const outer = '\n' + ' '.repeat(indent * depth);
    return `${open}${inner}${entries.join(',' + inner)}${outer}${close}`;
  };
  return write(value, 0);
}
