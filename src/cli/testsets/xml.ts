/**
 * A small XML reader for WMT's 2021+ test-set files: elements, attributes, text, the five predefined entities and
 * character references, comments, CDATA, processing instructions and a DOCTYPE without an internal subset. It builds
 * a tree; the files are a few MB.
 */

export interface XmlElement {
  readonly name: string;
  readonly attrs: Readonly<Record<string, string>>;
  readonly children: XmlElement[];
  /** Text before the first child element (lxml's `.text`); null when there is none. */
  text: string | null;
}

const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decode(s: string, where: () => string): string {
  return s.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[A-Za-z]+);/g, (all, ref: string) => {
    if (ref[0] === '#') return String.fromCodePoint(ref[1] === 'x' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10));
    const e = ENTITIES[ref];
    if (e === undefined) throw new Error(`unknown entity ${all} ${where()}`);
    return e;
  });
}

/** Parses `xml` into its root element. @throws Error naming the line of the first problem. */
export function parseXml(xml: string): XmlElement {
  const lineAt = (i: number): string => `at line ${xml.slice(0, i).split('\n').length}`;
  const stack: XmlElement[] = [];
  let root: XmlElement | null = null;
  let i = 0;
  const addText = (t: string): void => {
    const top = stack[stack.length - 1];
    if (top !== undefined && top.children.length === 0) top.text = (top.text ?? '') + t;
  };
  while (i < xml.length) {
    const lt = xml.indexOf('<', i);
    if (lt < 0) {
      addText(decode(xml.slice(i), () => lineAt(i)));
      break;
    }
    if (lt > i) addText(decode(xml.slice(i, lt), () => lineAt(i)));
    if (xml.startsWith('<!--', lt)) {
      const end = xml.indexOf('-->', lt);
      if (end < 0) throw new Error(`unclosed comment ${lineAt(lt)}`);
      i = end + 3;
    } else if (xml.startsWith('<![CDATA[', lt)) {
      const end = xml.indexOf(']]>', lt);
      if (end < 0) throw new Error(`unclosed CDATA ${lineAt(lt)}`);
      addText(xml.slice(lt + 9, end));
      i = end + 3;
    } else if (xml.startsWith('<?', lt)) {
      const end = xml.indexOf('?>', lt);
      if (end < 0) throw new Error(`unclosed processing instruction ${lineAt(lt)}`);
      i = end + 2;
    } else if (xml.startsWith('<!', lt)) {
      const end = xml.indexOf('>', lt);
      if (end < 0) throw new Error(`unclosed declaration ${lineAt(lt)}`);
      i = end + 1;
    } else if (xml[lt + 1] === '/') {
      const end = xml.indexOf('>', lt);
      const name = xml.slice(lt + 2, end).trim();
      const top = stack.pop();
      if (end < 0 || top === undefined || top.name !== name) throw new Error(`mismatched </${name}> ${lineAt(lt)}`);
      i = end + 1;
    } else {
      const tag = /^<([^\s/>]+)((?:\s+[^\s=/>]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>/.exec(xml.slice(lt, xml.indexOf('>', lt) + 1));
      if (tag === null) throw new Error(`malformed tag ${lineAt(lt)}`);
      const attrs: Record<string, string> = {};
      for (const a of tag[2].matchAll(/([^\s=/>]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) {
        attrs[a[1]] = decode(a[2] ?? a[3], () => lineAt(lt));
      }
      const el: XmlElement = { name: tag[1], attrs, children: [], text: null };
      const parent = stack[stack.length - 1];
      if (parent !== undefined) parent.children.push(el);
      else if (root === null) root = el;
      else throw new Error(`second root element ${lineAt(lt)}`);
      if (tag[3] !== '/') stack.push(el);
      i = lt + tag[0].length;
    }
  }
  if (root === null || stack.length > 0) throw new Error('unexpected end of document');
  return root;
}

/** Every descendant of `el` named `name`, in document order (`.//name`). */
export function descendants(el: XmlElement, name: string, out: XmlElement[] = []): XmlElement[] {
  for (const c of el.children) {
    if (c.name === name) out.push(c);
    descendants(c, name, out);
  }
  return out;
}
