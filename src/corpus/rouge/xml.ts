/**
 * A small non-validating XML 1.0 reader for ROUGE-1.5.5 configuration files, giving the tree ROUGE's XML::DOM sees:
 * elements with attributes, text, and the comments and processing instructions that separate text nodes. Like
 * expat (under XML::DOM) it refuses what is not well-formed — unbalanced or mismatched tags, a bad name, an
 * unquoted or duplicate attribute, `<` in an attribute value, a bare `&`, an undefined entity, `]]>` in text,
 * characters XML forbids, content after the root element — and reports the line.
 *
 * What it reads as a DOM would: line ends become `\n`; the five predefined entities and character references are
 * expanded; CDATA sections become text (XML::DOM's default); adjacent text is one node; attribute values have their
 * whitespace characters turned into spaces. A DOCTYPE is skipped (its internal subset is not interpreted, so an
 * entity it declares is reported as undefined). Encodings: UTF-8 (the default, checked strictly), ISO-8859-1 and
 * US-ASCII as the XML declaration names them.
 */
import { InputError } from '../../errors.js';
import { firstInvalidUtf8 } from '../read-lines.js';

/** An element: its name as written, its attributes in document order, its children. */
export interface XmlElement {
  readonly kind: 'element';
  readonly name: string;
  readonly attributes: ReadonlyMap<string, string>;
  readonly children: readonly XmlNode[];
  /** 1-based line of the start tag. */
  readonly line: number;
}

/** Character data (text and CDATA sections, merged as one DOM text node). */
export interface XmlText {
  readonly kind: 'text';
  readonly data: string;
}

/** A comment or processing instruction: no content ROUGE reads, but it ends a text node. */
export interface XmlOther {
  readonly kind: 'other';
}

/** A node of the tree. */
export type XmlNode = XmlElement | XmlText | XmlOther;

const PREDEFINED: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', apos: "'", quot: '"' };

/** The XML 1.0 `Char` production (surrogate pairs are checked as pairs). */
function isXmlChar(c: number): boolean {
  return c === 0x9 || c === 0xa || c === 0xd || (c >= 0x20 && c <= 0xd7ff) || (c >= 0xe000 && c <= 0xfffd);
}

function isNameStart(c: number): boolean {
  return (
    (c >= 0x61 && c <= 0x7a) ||
    (c >= 0x41 && c <= 0x5a) ||
    c === 0x5f ||
    c === 0x3a ||
    (c >= 0xc0 && c !== 0xd7 && c !== 0xf7 && c !== 0x37e && !(c >= 0x2000 && c <= 0x200b) && c < 0xfffe)
  );
}

function isNameChar(c: number): boolean {
  return isNameStart(c) || (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2e || c === 0xb7;
}

function isXmlSpace(c: number): boolean {
  return c === 0x20 || c === 0x9 || c === 0xa || c === 0xd;
}

/** Valid UTF-8 as text; a byte-order mark stays U+FEFF ({@link decodeXml} skips a leading one itself). */
const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * ISO-8859-1: each byte is the code point of the same number. (`TextDecoder('latin1')` is windows-1252 under the
 * WHATWG Encoding standard, which differs at 0x80–0x9F.)
 */
function latin1(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 8192) out += String.fromCharCode(...bytes.subarray(i, i + 8192));
  return out;
}

/**
 * Decodes the bytes of an XML document by its byte-order mark and declared encoding.
 * @throws InputError `E_INVALID_UTF8` for malformed UTF-8, `E_BAD_INPUT` for an encoding this reader does not know.
 */
export function decodeXml(bytes: Uint8Array, file: string): string {
  if (bytes.length >= 2 && ((bytes[0] === 0xfe && bytes[1] === 0xff) || (bytes[0] === 0xff && bytes[1] === 0xfe))) {
    throw new InputError('E_BAD_INPUT', 'UTF-16 XML is not supported: save the configuration as UTF-8', { file });
  }
  let start = 0;
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) start = 3;
  // The declaration is ASCII, so a byte-wise look at the head finds it whatever the encoding.
  const head = latin1(bytes.subarray(start, start + 200));
  const declared = /^<\?xml[^>]*?\sencoding\s*=\s*(["'])([A-Za-z][A-Za-z0-9._-]*)\1/.exec(head)?.[2].toLowerCase();
  const body = bytes.subarray(start);
  if (declared === undefined || declared === 'utf-8' || declared === 'utf8') {
    const bad = firstInvalidUtf8(body);
    if (bad >= 0) {
      let line = 1;
      for (let i = 0; i < bad; i++) if (body[i] === 0x0a) line++;
      throw new InputError(
        'E_INVALID_UTF8',
        `invalid UTF-8: byte 0x${body[bad].toString(16).padStart(2, '0')} at byte offset ${bad + start} cannot be decoded`,
        { file, line },
      );
    }
    return utf8.decode(body);
  }
  if (declared === 'iso-8859-1' || declared === 'latin1' || declared === 'latin-1') {
    return latin1(body);
  }
  if (declared === 'us-ascii' || declared === 'ascii') {
    const bad = body.findIndex((b) => b >= 0x80);
    if (bad >= 0) {
      throw new InputError(
        'E_BAD_INPUT',
        `byte 0x${body[bad].toString(16)} is not US-ASCII, as the XML declaration says`,
        { file },
      );
    }
    return latin1(body);
  }
  throw new InputError('E_BAD_INPUT', `unsupported XML encoding "${declared}" (use UTF-8)`, { file });
}

/** Builds the {@link XmlElement} tree of one document. */
class XmlReader {
  private pos = 0;
  private line = 1;

  constructor(
    private readonly src: string,
    private readonly file: string,
  ) {}

  private fail(message: string): never {
    throw new InputError('E_BAD_INPUT', `malformed XML: ${message}`, { file: this.file, line: this.line });
  }

  private startsWith(s: string): boolean {
    return this.src.startsWith(s, this.pos);
  }

  /** Moves to `to`, counting the line ends passed. */
  private advance(to: number): void {
    for (let i = this.pos; i < to; i++) if (this.src.charCodeAt(i) === 0x0a) this.line++;
    this.pos = to;
  }

  private skipSpace(): boolean {
    const from = this.pos;
    let i = from;
    while (i < this.src.length && isXmlSpace(this.src.charCodeAt(i))) i++;
    this.advance(i);
    return i > from;
  }

  /** Checks that every character of src[from, to) is an XML character. */
  private checkChars(from: number, to: number): void {
    for (let i = from; i < to; i++) {
      const c = this.src.charCodeAt(i);
      if (isXmlChar(c)) continue;
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < to) {
        const d = this.src.charCodeAt(i + 1);
        if (d >= 0xdc00 && d <= 0xdfff) {
          i++;
          continue;
        }
      }
      this.advance(i);
      this.fail(`character U+${c.toString(16).toUpperCase().padStart(4, '0')} is not allowed in XML`);
    }
  }

  private readName(what: string): string {
    const src = this.src;
    const from = this.pos;
    if (from >= src.length || !isNameStart(src.charCodeAt(from))) this.fail(`expected ${what}`);
    let i = from + 1;
    while (i < src.length && isNameChar(src.charCodeAt(i))) i++;
    this.pos = i;
    return src.slice(from, i);
  }

  /** Reads `&…;` at the cursor and returns its replacement text. */
  private readReference(): string {
    const end = this.src.indexOf(';', this.pos);
    const body = end < 0 ? '' : this.src.slice(this.pos + 1, end);
    if (end < 0 || body.length === 0 || body.length > 40)
      this.fail("'&' must start an entity or character reference (write &amp;)");
    let out: string | undefined;
    if (body.charCodeAt(0) === 0x23 /* # */) {
      const hex = body.charCodeAt(1) === 0x78; /* x */
      const digits = body.slice(hex ? 2 : 1);
      if (hex ? /^[0-9A-Fa-f]+$/.test(digits) : /^[0-9]+$/.test(digits)) {
        const cp = parseInt(digits, hex ? 16 : 10);
        if (cp <= 0x10ffff && (cp >= 0x10000 || isXmlChar(cp))) out = String.fromCodePoint(cp);
      }
      if (out === undefined) this.fail(`bad character reference &${body};`);
    } else {
      out = PREDEFINED[body];
      if (out === undefined) this.fail(`undefined entity &${body};`);
    }
    this.pos = end + 1;
    return out;
  }

  /** Skips a comment `<!-- … -->` at the cursor. */
  private skipComment(): void {
    const end = this.src.indexOf('-->', this.pos + 4);
    if (end < 0) this.fail('unterminated comment');
    const inner = this.src.slice(this.pos + 4, end);
    if (inner.includes('--') || inner.endsWith('-')) this.fail("'--' is not allowed inside a comment");
    this.checkChars(this.pos, end);
    this.advance(end + 3);
  }

  /** Skips a processing instruction `<? … ?>` at the cursor. */
  private skipPi(): void {
    const end = this.src.indexOf('?>', this.pos + 2);
    if (end < 0) this.fail('unterminated processing instruction');
    this.pos += 2;
    const target = this.readName('a processing-instruction target');
    if (target.toLowerCase() === 'xml') this.fail('the XML declaration is only allowed at the very start');
    this.checkChars(this.pos, end);
    this.advance(end + 2);
  }

  /** Skips `<!DOCTYPE …>`, with its internal subset. */
  private skipDoctype(): void {
    let depth = 0;
    let quote = 0;
    for (let i = this.pos + 9; i < this.src.length; i++) {
      const c = this.src.charCodeAt(i);
      if (quote !== 0) {
        if (c === quote) quote = 0;
      } else if (c === 0x22 || c === 0x27) quote = c;
      else if (c === 0x5b) depth++;
      else if (c === 0x5d) depth--;
      else if (c === 0x3e && depth <= 0) {
        this.advance(i + 1);
        return;
      }
    }
    this.fail('unterminated DOCTYPE');
  }

  /** Comments, processing instructions and whitespace between top-level constructs. */
  private skipMisc(): void {
    for (;;) {
      this.skipSpace();
      if (this.startsWith('<!--')) this.skipComment();
      else if (this.startsWith('<?')) this.skipPi();
      else return;
    }
  }

  private readAttributeValue(): string {
    const quote = this.src.charCodeAt(this.pos);
    if (quote !== 0x22 && quote !== 0x27) this.fail('attribute values must be quoted');
    this.pos++;
    let out = '';
    for (;;) {
      if (this.pos >= this.src.length) this.fail('unterminated attribute value');
      const c = this.src.charCodeAt(this.pos);
      if (c === quote) {
        this.pos++;
        return out;
      }
      if (c === 0x3c) this.fail("'<' is not allowed in an attribute value");
      if (c === 0x26) {
        out += this.readReference();
        continue;
      }
      this.checkChars(this.pos, this.pos + 1);
      if (c === 0x0a) this.line++;
      // Attribute-value normalisation: literal whitespace characters become spaces.
      out += c === 0x9 || c === 0xa || c === 0xd ? ' ' : this.src[this.pos];
      this.pos++;
    }
  }

  /** Reads an element whose `<` is at the cursor. */
  private readElement(): XmlElement {
    const line = this.line;
    this.pos++;
    const name = this.readName('an element name');
    const attributes = new Map<string, string>();
    for (;;) {
      const spaced = this.skipSpace();
      if (this.startsWith('/>')) {
        this.pos += 2;
        return { kind: 'element', name, attributes, children: [], line };
      }
      if (this.startsWith('>')) {
        this.pos++;
        break;
      }
      if (!spaced) this.fail(`expected '>', '/>' or whitespace and an attribute in <${name}>`);
      const attr = this.readName('an attribute name');
      this.skipSpace();
      if (!this.startsWith('=')) this.fail(`expected '=' after attribute ${attr}`);
      this.pos++;
      this.skipSpace();
      if (attributes.has(attr)) this.fail(`duplicate attribute ${attr} in <${name}>`);
      attributes.set(attr, this.readAttributeValue());
    }
    const children: XmlNode[] = [];
    let text = '';
    let hasText = false;
    const flushText = (): void => {
      if (hasText) children.push({ kind: 'text', data: text });
      text = '';
      hasText = false;
    };
    const src = this.src;
    for (;;) {
      if (this.pos >= src.length) this.fail(`<${name}> (line ${line}) is not closed`);
      const lt = src.indexOf('<', this.pos);
      const amp = src.indexOf('&', this.pos);
      const stop = lt < 0 ? src.length : amp >= 0 && amp < lt ? amp : lt;
      if (stop > this.pos) {
        const chunk = src.slice(this.pos, stop);
        const bad = chunk.indexOf(']]>');
        if (bad >= 0) {
          this.advance(this.pos + bad);
          this.fail("']]>' is not allowed in text");
        }
        this.checkChars(this.pos, stop);
        text += chunk;
        hasText = true;
        this.advance(stop);
        continue;
      }
      if (src.charCodeAt(this.pos) === 0x26) {
        text += this.readReference();
        hasText = true;
      } else if (this.startsWith('</')) {
        this.pos += 2;
        const closing = this.readName('an element name');
        this.skipSpace();
        if (!this.startsWith('>')) this.fail(`expected '>' to end </${closing}>`);
        this.pos++;
        if (closing !== name) this.fail(`mismatched tag: </${closing}> closes <${name}> of line ${line}`);
        flushText();
        return { kind: 'element', name, attributes, children, line };
      } else if (this.startsWith('<![CDATA[')) {
        const end = src.indexOf(']]>', this.pos + 9);
        if (end < 0) this.fail('unterminated CDATA section');
        this.checkChars(this.pos + 9, end);
        text += src.slice(this.pos + 9, end);
        hasText = true;
        this.advance(end + 3);
      } else if (this.startsWith('<!--')) {
        flushText();
        this.skipComment();
        children.push({ kind: 'other' });
      } else if (this.startsWith('<?')) {
        flushText();
        this.skipPi();
        children.push({ kind: 'other' });
      } else {
        flushText();
        children.push(this.readElement());
      }
    }
  }

  /** The root element of the document. */
  read(): XmlElement {
    if (this.startsWith('<?xml') && isXmlSpace(this.src.charCodeAt(5))) {
      const end = this.src.indexOf('?>');
      if (end < 0) this.fail('unterminated XML declaration');
      this.advance(end + 2);
    }
    this.skipMisc();
    if (this.startsWith('<!DOCTYPE')) {
      this.skipDoctype();
      this.skipMisc();
    }
    if (!this.startsWith('<') || this.startsWith('<!')) {
      this.fail(this.pos >= this.src.length ? 'no root element' : 'expected the root element');
    }
    const root = this.readElement();
    this.skipMisc();
    if (this.pos < this.src.length) this.fail('junk after the root element');
    return root;
  }
}

/**
 * Parses a whole XML document and returns its root element.
 * @param text the decoded document ({@link decodeXml})
 * @param file the name used in error messages
 * @throws InputError `E_BAD_INPUT` naming the file and line of the first well-formedness error
 */
export function parseXml(text: string, file: string): XmlElement {
  // XML end-of-line handling: every \r\n and lone \r reads as \n.
  return new XmlReader(text.replace(/\r\n?/g, '\n'), file).read();
}
