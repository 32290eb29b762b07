/**
 * ROUGE-1.5.5 inputs (src/corpus/rouge/): the XML reader (well-formed documents as a DOM sees them, malformed ones
 * refused with their line), the configuration as ROUGE's `readEvals` reads it (on the SL2003 sample configuration
 * and on small documents for each rule), `-z` file lists, the SEE/ISI/SPL/SIMPLE line readers and the summary files.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InputError } from '../src/errors.js';
import { modelPaths, peerPath, readEvalConfig, type Rouge155Config } from '../src/corpus/rouge/eval-config.js';
import { readFileList } from '../src/corpus/rouge/file-list.js';
import { decodeTerminatedLines } from '../src/corpus/rouge/summary-format.js';
import { readInputBytes, SummaryFiles } from '../src/node/rouge155-files.js';
import { basicElementLines, parseRouge155Format, summarySentences } from '../src/corpus/rouge/summary-format.js';
import { decodeXml, parseXml, type XmlElement } from '../src/corpus/rouge/xml.js';

const SL2003 = new URL('./fixtures/rouge155/sl2003/', import.meta.url);

/** The error a call throws. */
function thrown(f: () => unknown): InputError {
  try {
    f();
  } catch (err) {
    expect(err).toBeInstanceOf(InputError);
    return err as InputError;
  }
  throw new Error('no error');
}

/** A configuration from XML text. */
function config(xml: string): Rouge155Config {
  return readEvalConfig(parseXml(xml, 'c.xml'), 'c.xml');
}

describe('XML reader', () => {
  it('gives elements, attributes, merged text and the nodes that split text', () => {
    const root = parseXml(
      '<?xml version="1.0"?>\n<!-- head -->\n<!DOCTYPE r [ <!ELEMENT r ANY> ]>\n' +
        '<r a=\'1\' b="x&amp;y\tz">one &lt;two&gt; <![CDATA[<three>]]>&#65;&#x42;<!--c-->four<?pi x?><e/><f g=""></f></r>\n',
      'x.xml',
    );
    expect(root.name).toBe('r');
    expect([...root.attributes]).toEqual([
      ['a', '1'],
      ['b', 'x&y z'],
    ]);
    expect(root.children.map((c) => c.kind)).toEqual(['text', 'other', 'text', 'other', 'element', 'element']);
    expect(root.children[0]).toEqual({ kind: 'text', data: 'one <two> <three>AB' });
    expect(root.children[2]).toEqual({ kind: 'text', data: 'four' });
    expect((root.children[5] as XmlElement).attributes.get('g')).toBe('');
  });

  it('reads line ends as \\n and numbers lines', () => {
    const root = parseXml('<r>\r\n<s>a\rb</s>\r\n</r>', 'x.xml');
    const s = root.children[1] as XmlElement;
    expect(s.line).toBe(2);
    expect(s.children[0]).toEqual({ kind: 'text', data: 'a\nb' });
  });

  it.each([
    ['<a><b></a>', 1, 'mismatched tag: </a> closes <b> of line 1'],
    ['<a>\n<b>\n</b>', 3, '<a> (line 1) is not closed'],
    ['<a x=1/>', 1, 'attribute values must be quoted'],
    ['<a x="1" x="2"/>', 1, 'duplicate attribute x in <a>'],
    ['<a x="<"/>', 1, "'<' is not allowed in an attribute value"],
    ['<a>\n&nbsp;</a>', 2, 'undefined entity &nbsp;'],
    ['<a>AT&T</a>', 1, "'&' must start an entity or character reference (write &amp;)"],
    ['<a>&#0;</a>', 1, 'bad character reference &#0;'],
    ['<a>x]]>y</a>', 1, "']]>' is not allowed in text"],
    ['<a>\u0001</a>', 1, 'character U+0001 is not allowed in XML'],
    ['<a/><b/>', 1, 'junk after the root element'],
    ['', 1, 'no root element'],
    ['  text', 1, 'expected the root element'],
    ['<a><!-- x -- y --></a>', 1, "'--' is not allowed inside a comment"],
    ['<1a/>', 1, 'expected an element name'],
    ['<a b="1"c="2"/>', 1, "expected '>', '/>' or whitespace and an attribute in <a>"],
    ['<a>\n\n<?xml version="1.0"?></a>', 3, 'the XML declaration is only allowed at the very start'],
  ])('%j is refused at line %i', (xml, line, message) => {
    const err = thrown(() => parseXml(xml, 'bad.xml'));
    expect(err.code).toBe('E_BAD_INPUT');
    expect(err.file).toBe('bad.xml');
    expect(err.line).toBe(line);
    expect(err.message).toBe(`malformed XML: ${message}`);
  });

  it('decodes by BOM and declared encoding', () => {
    expect(decodeXml(Buffer.from('\ufeff<a>é</a>'), 'x.xml')).toBe('<a>é</a>');
    expect(
      decodeXml(
        Buffer.from([...Buffer.from('<?xml version="1.0" encoding="ISO-8859-1"?><a>'), 0xe9, ...Buffer.from('</a>')]),
        'x.xml',
      ),
    ).toBe('<?xml version="1.0" encoding="ISO-8859-1"?><a>é</a>');
    const bad = thrown(() => decodeXml(Buffer.from([...Buffer.from('<a>\n'), 0xff, ...Buffer.from('</a>')]), 'x.xml'));
    expect([bad.code, bad.file, bad.line]).toEqual(['E_INVALID_UTF8', 'x.xml', 2]);
    expect(thrown(() => decodeXml(Buffer.from([0xff, 0xfe, 0x3c, 0]), 'x.xml')).message).toContain('UTF-16');
    expect(
      thrown(() => decodeXml(Buffer.from('<?xml version="1.0" encoding="Shift_JIS"?><a/>'), 'x.xml')).message,
    ).toBe('unsupported XML encoding "shift_jis" (use UTF-8)');
  });
});

describe('evaluation configuration (readEvals)', () => {
  it('reads the SL2003 sample configuration', () => {
    const bytes = readInputBytes('ROUGE-test.xml', SL2003.pathname, 'configuration file');
    const c = readEvalConfig(parseXml(decodeXml(bytes, 'ROUGE-test.xml'), 'ROUGE-test.xml'), 'ROUGE-test.xml');
    expect(c.evals.map((e) => e.id)).toEqual(Array.from({ length: 25 }, (_, i) => String(i + 1)));
    expect(c.peerIds).toEqual(['11', '12', '13', '14', '21', '22', '23', '24']);
    const first = c.evals[0];
    expect(first.format).toBe('SEE');
    expect(peerPath(c, first, '11')).toBe('SL2003/systems/SL.P.10.R.11.SL062003-01.html');
    expect(modelPaths(c, first)).toEqual(
      ['A', 'B', 'C', 'D'].map((m) => `SL2003/models/SL.P.10.R.${m}.SL062003-01.html`),
    );
    expect(peerPath(c, first, '99')).toBeUndefined();
  });

  it('matches element names in any case, descends into unknown elements, merges repeated EVALs', () => {
    const c = config(
      '<rouge-eval><group><eval ID="b"><peer-root> p </peer-root><Model-Root>\n m \n</Model-Root>' +
        '<input-format TYPE="spl"/><peers><p ID="s1">x.txt</p></peers></eval></group>' +
        '<EVAL ID="a"><MODELS><M ID="1">m1</M></MODELS></EVAL>' +
        '<EVAL ID="b"><wrap><MODELS><M ID="r">r.txt</M></MODELS></wrap></EVAL></rouge-eval>',
    );
    expect(c.evals.map((e) => e.id)).toEqual(['b', 'a']);
    const b = c.evals[0];
    expect([b.peerRoot, b.modelRoot, b.format]).toEqual(['p', 'm', 'spl']);
    expect(peerPath(c, b, 's1')).toBe('p/x.txt');
    expect(modelPaths(c, b)).toEqual(['m/r.txt']);
    // No roots: ROUGE joins undef and the file with '/'.
    expect(modelPaths(c, c.evals[1])).toEqual(['/m1']);
  });

  it('keeps the last text node of an element, stripped; repeated ids as ROUGE keeps them', () => {
    const c = config(
      '<R><EVAL ID="1"><PEERS><P ID="x">old<!-- c -->\n new.txt \u00a0</P><P ID="x">last.txt</P><P ID="y"></P></PEERS>' +
        '<MODELS><M ID="m">a.txt</M><M ID="m">b.txt</M><M ID="n"></M></MODELS></EVAL></R>',
    );
    const unit = c.evals[0];
    expect(peerPath(c, unit, 'x')).toBe('/last.txt');
    // A P without text names the peer but gives it no file.
    expect(c.peerIds).toEqual(['x', 'y']);
    expect(peerPath(c, unit, 'y')).toBeUndefined();
    // A model id given twice is scored twice with its last file; a model without text is the root itself.
    expect(modelPaths(c, unit)).toEqual(['/b.txt', '/b.txt', '/']);
    const split = config('<R><EVAL ID="1"><PEERS><P ID="x">old<!-- c -->\n new.txt \u00a0</P></PEERS></EVAL></R>');
    expect(peerPath(split, split.evals[0], 'x')).toBe('/new.txt');
  });

  it('parts outside every EVAL belong to EVAL ID="" if there is one, and are refused otherwise', () => {
    const c = config('<R><EVAL ID=""/><PEER-ROOT>r</PEER-ROOT></R>');
    expect(c.evals[0].peerRoot).toBe('r');
    const err = thrown(() => config('<R>\n<PEERS><P ID="1">f</P></PEERS></R>'));
    expect([err.code, err.file, err.line, err.message]).toEqual([
      'E_BAD_INPUT',
      'c.xml',
      2,
      '<PEERS> must be inside an <EVAL ID="…"> element',
    ]);
    // Without a text or a child there is nothing to attach, so ROUGE goes on.
    expect(config('<R><PEER-ROOT/><MODELS/></R>').evals).toEqual([]);
  });

  it.each([
    ['<R><EVAL/></R>', '<EVAL> needs a ID attribute'],
    ['<R><EVAL ID="1"><INPUT-FORMAT/></EVAL></R>', '<INPUT-FORMAT> needs a TYPE attribute'],
    [
      '<R><EVAL ID="1"><INPUT-FORMAT TYPE="HTML"/></EVAL></R>',
      'unknown input format TYPE="HTML" (expected SEE, SPL, ISI or SIMPLE)',
    ],
    ['<R><EVAL ID="1"><PEERS><P>f</P></PEERS></EVAL></R>', '<P> needs a ID attribute'],
    ['<R><EVAL ID="1"><MODELS><m id="1">f</m></MODELS></EVAL></R>', '<m> needs a ID attribute'],
  ])('%j: refused', (xml, message) => {
    expect(thrown(() => config(xml)).message).toBe(message);
  });
});

describe('-z file lists', () => {
  it('numbers units, names models M.1 … M.N, skips comments and blank lines', () => {
    const c = readFileList(
      ['# comment', 'p1 m1 m2', '', ' \t ', '  p2\tm3  ', ' # not a comment x'],
      'SPL',
      'X',
      'list',
    );
    expect(c.peerIds).toEqual(['X']);
    expect(c.evals.map((e) => [e.id, e.format, peerPath(c, e, 'X'), modelPaths(c, e), e.modelIds])).toEqual([
      ['1', 'SPL', 'p1', ['m1', 'm2'], ['M.1', 'M.2']],
      ['2', 'SPL', 'p2', ['m3'], ['M.1']],
      ['3', 'SPL', '#', ['not', 'a', 'comment', 'x'], ['M.1', 'M.2', 'M.3', 'M.4']],
    ]);
  });

  it('refuses a line with fewer than two files, naming it', () => {
    const err = thrown(() => readFileList(['p m', 'lonely'], 'SPL', 'X', 'list.txt'));
    expect([err.code, err.file, err.line]).toEqual(['E_BAD_INPUT', 'list.txt', 2]);
    expect(err.message).toBe('a file list line needs at least 2 file names (peer model1 model2 ... modelN)');
  });
});

describe('summary formats', () => {
  const see = [
    '<html>\n',
    '<a name="1">[1]</a> <a href="#1" id=1>First sentence.</a>\n',
    '<a size="12" name="2">[2]</a>\t<a href="#2" id=2>Second, with its end\n',
    'lost on this line</a>\n',
    '<a name="3">[3]</a> <a href="#3" id=3></a>\n',
    '<A NAME="4">[4]</A> <A HREF="#4" ID=4>upper case</A>\n',
    '  <a name="5">[5]</a> <a href="#5" id=5>indented</a>\n',
    '<a name="6">[6]</a> <a href="#6" id=6>&amp; entities stay</a>',
  ];

  it('SEE: the text after id=N> up to < or the line end, with the newline; continuation lines lost', () => {
    expect(summarySentences(see, 'SEE')).toEqual(['First sentence.', 'Second, with its end\n', '&amp; entities stay']);
  });

  it('ISI: <S SNTNO="…">text</S> on one line', () => {
    expect(
      summarySentences(
        ['<S SNTNO="1">one</S>\n', '<S SNTNO="a,b">two</S>x\n', '<S SNTNO="2">open\n', '<s SNTNO="3">x</s>\n'],
        'ISI',
      ),
    ).toEqual(['one', 'two']);
  });

  it('SPL: every non-empty line without its \\n; spaces and \\r kept', () => {
    expect(summarySentences(['a b\n', '\n', ' \n', 'c\r\n', 'd'], 'SPL')).toEqual(['a b', ' ', 'c\r', 'd']);
  });

  it('SIMPLE: every line, empty ones included; nothing from ISI', () => {
    expect(basicElementLines(['h|m|r\n', '\n', 'x|nil|nil'], 'SIMPLE')).toEqual(['h|m|r', '', 'x|nil|nil']);
    expect(basicElementLines(['<S SNTNO="1">x</S>\n'], 'ISI')).toEqual([]);
  });

  it('format names in any case', () => {
    expect(['see', 'Spl', 'ISI', 'simple', 'html'].map(parseRouge155Format)).toEqual([
      'SEE',
      'SPL',
      'ISI',
      'SIMPLE',
      undefined,
    ]);
  });
});

describe('summary files', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rouge155-config-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('splits after each \\n, keeping it, as Perl reads lines', () => {
    expect(decodeTerminatedLines(Buffer.from('a\n\nb\n'), 'f')).toEqual(['a\n', '\n', 'b\n']);
    expect(decodeTerminatedLines(Buffer.from('a\nb'), 'f')).toEqual(['a\n', 'b']);
    expect(decodeTerminatedLines(Buffer.from(''), 'f')).toEqual([]);
  });

  it('reads each file once, relative to the working directory', () => {
    writeFileSync(join(dir, 's.spl'), 'one\ntwo\n');
    const files = new SummaryFiles(dir);
    const first = files.sentences('s.spl', 'SPL', 'peer summary');
    writeFileSync(join(dir, 's.spl'), 'changed\n');
    expect(files.sentences('s.spl', 'SPL', 'peer summary')).toBe(first);
    expect(first).toEqual(['one', 'two']);
    expect(files.basicElements('s.spl', 'SIMPLE', 'peer summary')).toEqual(['changed']);
  });

  it('names the file when it is missing, a directory, or not UTF-8', () => {
    const files = new SummaryFiles(dir);
    const missing = thrown(() => files.sentences('nope.spl', 'SPL', 'model summary'));
    expect([missing.code, missing.file, missing.message]).toEqual([
      'E_FILE_NOT_FOUND',
      'nope.spl',
      'model summary not found',
    ]);
    const directory = thrown(() => files.sentences('.', 'SPL', 'peer summary'));
    expect([directory.code, directory.message]).toEqual([
      'E_FILE_UNREADABLE',
      'peer summary is a directory, not a file',
    ]);
    writeFileSync(join(dir, 'latin1.spl'), Buffer.from([0x6f, 0x6b, 0x0a, 0x63, 0x61, 0x66, 0xe9, 0x0a]));
    const latin1 = thrown(() => files.sentences('latin1.spl', 'SPL', 'peer summary'));
    expect([latin1.code, latin1.file, latin1.line]).toEqual(['E_INVALID_UTF8', 'latin1.spl', 2]);
  });
});
