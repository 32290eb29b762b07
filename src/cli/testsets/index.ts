/**
 * sacreBLEU's test sets in `palette score`: the table (table.ts), each set's files turned into one text file per
 * field exactly as sacreBLEU 2.6.0 writes them into its cache (`$SACREBLEU/NAME/NAME.PAIR.FIELD`, so either tool can
 * use what the other cached), the `--origlang`/`--subset` document filter, and the `--list`, `--citation`,
 * `--echo` and `--download` commands.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../../errors.js';
import { pyJoinSplit, pyRstrip } from '../../text/pystr.js';
import type { CliIo } from '../io.js';
import type { TestSetOptions } from '../score-options.js';
import { cacheRoot, ensureDownloaded, readCachedLines, writeLinesAtomic } from './download.js';
import { TABLE } from './table.js';
import type { TestSetEntry, TestSetTable } from './types.js';

type Env = Readonly<Record<string, string | undefined>>;

/** A WMT XML file unwrapped: field name → one value per segment, in sacreBLEU's field order. */
type XmlFields = Map<string, string[]>;

function refField(translator: string | undefined): string {
  return translator ? `ref:${translator}` : 'ref';
}

/**
 * The built-in table, with the sets of the JSON file `$PALETTE_SACREBLEU_TABLE` (same shape, for tests and private
 * sets) added or put in place of those of the same name.
 */
export function testSetTable(env: Env): TestSetTable {
  const path = env.PALETTE_SACREBLEU_TABLE;
  if (path === undefined || path === '') return TABLE;
  let extra: Partial<TestSetTable>;
  try {
    extra = JSON.parse(readFileSync(path, 'utf8')) as Partial<TestSetTable>;
  } catch (err) {
    throw new InputError('E_BAD_INPUT', `PALETTE_SACREBLEU_TABLE: cannot read ${path}: ${(err as Error).message}`);
  }
  return {
    datasets: { ...TABLE.datasets, ...extra.datasets },
    subsets: { ...TABLE.subsets, ...extra.subsets },
  };
}

/** One `palette score` run's access to the test sets: downloads, processing and caches of parsed XML. */
export class TestSets {
  private readonly xml = new Map<string, XmlFields>();
  readonly table: TestSetTable;

  constructor(
    private readonly env: Env,
    private readonly log: (message: string) => void,
  ) {
    this.table = testSetTable(env);
  }

  /** The table entry of `name`. @throws InputError for a name not in the table. */
  entry(name: string): TestSetEntry {
    const entry = Object.hasOwn(this.table.datasets, name) ? this.table.datasets[name] : undefined;
    if (entry === undefined) {
      throw new InputError('E_BAD_OPTION', `unknown test set ${JSON.stringify(name)} (see palette score --list)`);
    }
    return entry;
  }

  /** The pair's raw file paths as the table gives them (source first). @throws InputError for an unknown pair. */
  pairFiles(name: string, pair: string): readonly string[] {
    const entry = this.entry(name);
    const files = Object.hasOwn(entry.langpairs, pair) ? entry.langpairs[pair] : undefined;
    if (files === undefined) {
      throw new InputError(
        'E_BAD_OPTION',
        `no language pair ${JSON.stringify(pair)} in test set ${JSON.stringify(name)}; its pairs are: ${Object.keys(entry.langpairs).join(', ')}`,
      );
    }
    return Array.isArray(files) ? files : [(files as { path: string }).path];
  }

  private outdir(name: string): string {
    return join(cacheRoot(this.env), name);
  }

  private rawdir(name: string): string {
    return join(this.outdir(name), 'raw');
  }

  /** Downloads what the set needs (all its URLs, as sacreBLEU). */
  async download(name: string): Promise<void> {
    const e = this.entry(name);
    await ensureDownloaded(name, e.data, e.md5, this.env, this.log);
  }

  /** `$SACREBLEU/NAME/NAME.PAIR.FIELD` (`/` in NAME and `:` in FIELD as `_` and `-`). */
  textPath(name: string, pair: string, field: string): string {
    return join(this.outdir(name), `${name.replace(/\//g, '_')}.${pair}.${field.replace(/:/g, '-')}`);
  }

  private rawLines(name: string, relative: string): string[] {
    const path = join(this.rawdir(name), relative);
    if (!existsSync(path)) {
      throw new InputError('E_BAD_INPUT', `test set ${name}: ${relative} is not in its download (looked for ${path})`);
    }
    return readCachedLines(path);
  }

  /** sacreBLEU's `_unwrap_wmt21_or_later`, on the pair's XML file. */
  private async unwrapXml(name: string, pair: string): Promise<XmlFields> {
    const key = `${name}\t${pair}`;
    const cached = this.xml.get(key);
    if (cached !== undefined) return cached;
    await this.download(name);
    const relative = this.pairFiles(name, pair)[0];
    const { parseXml, descendants } = await import('./xml.js');
    let root;
    try {
      root = parseXml(this.rawLines(name, relative).join('\n'));
    } catch (err) {
      if (err instanceof InputError) throw err;
      throw new InputError('E_BAD_INPUT', `test set ${name}: ${relative}: ${(err as Error).message}`);
    }
    // sacreBLEU keeps the translators in a Python set; Palette uses the order they first appear in.
    const translators: (string | undefined)[] = [];
    for (const r of descendants(root, 'ref')) if (!translators.includes(r.attrs.translator)) translators.push(r.attrs.translator);
    const src: string[] = [];
    const docids: string[] = [];
    const origlangs: string[] = [];
    const domains: string[] = [];
    const refs = new Map<string, string[]>(translators.map((t) => [refField(t), []]));
    const systems = new Map<string, string[]>();
    let seenDomain = false;
    const sents = (el: Parameters<typeof descendants>[0]): Map<number, string> =>
      new Map(descendants(el, 'seg').map((seg) => [parseInt(seg.attrs.id, 10), seg.text ?? '']));
    for (const doc of descendants(root, 'doc')) {
      if ('testsuite' in doc.attrs) continue;
      const srcSents = new Map<number, string>();
      for (const s of descendants(doc, 'src')) for (const [id, text] of sents(s)) srcSents.set(id, text);
      const byTranslator = new Map(descendants(doc, 'ref').map((r) => [r.attrs.translator, sents(r)] as const));
      const hyps = new Map(descendants(doc, 'hyp').map((h) => [h.attrs.system, sents(h)] as const));
      for (const id of [...srcSents.keys()].sort((a, b) => a - b)) {
        if (![...byTranslator.values()].some((m) => (m.get(id) ?? '') !== '')) continue;
        for (const t of translators) refs.get(refField(t))!.push(byTranslator.get(t as string)?.get(id) ?? '');
        src.push(srcSents.get(id)!);
        for (const [system, m] of hyps) {
          if (!systems.has(system)) systems.set(system, []);
          systems.get(system)!.push(m.get(id) ?? '');
        }
        docids.push(doc.attrs.id);
        origlangs.push(doc.attrs.origlang);
        domains.push(doc.attrs.domain);
        seenDomain = doc.attrs.domain !== undefined;
      }
    }
    const fields: XmlFields = new Map([['src', src], ...refs, ['docid', docids], ['origlang', origlangs], ...systems]);
    if (seenDomain) fields.set('domain', domains);
    this.xml.set(key, fields);
    return fields;
  }

  /** The fields of a pair, in sacreBLEU's order (`--list -t`, `--echo all`). */
  async fieldnames(name: string, pair: string): Promise<string[]> {
    const entry = this.entry(name);
    const files = this.pairFiles(name, pair);
    if (entry.format === 'wmt-xml') return [...(await this.unwrapXml(name, pair)).keys()];
    if (entry.format === 'fake-sgml' || entry.format === 'wmt-addition') {
      const fields = ['src', ...(files.length === 2 ? ['ref'] : files.slice(1).map((_, i) => `ref:${i}`))];
      if (!name.startsWith('wmt08')) fields.push('docid', 'genre', 'origlang');
      return fields;
    }
    return ['src', 'ref'];
  }

  /** Writes the pair's text files into the cache (sacreBLEU's `process_to_text`). */
  private async process(name: string, pair: string): Promise<void> {
    const entry = this.entry(name);
    await this.download(name);
    const files = this.pairFiles(name, pair);
    const fields = await this.fieldnames(name, pair);
    if (entry.format === 'wmt-xml') {
      const unwrapped = await this.unwrapXml(name, pair);
      for (const [field, values] of unwrapped) {
        const path = this.textPath(name, pair, field);
        if (existsSync(path) && statSync(path).size > 0) continue;
        writeLinesAtomic(path, values.map(pyJoinSplit));
      }
      return;
    }
    const origins = entry.format === 'plain-text' || entry.format === 'tsv' ? [...files] : [...files, files[0], files[0], files[0]];
    fields.forEach((field, k) => {
      if (k >= origins.length) return;
      let lines: string[];
      if (entry.format === 'tsv') {
        const meta = origins[k].split(':');
        const [index, file] = meta.length === 2 ? [parseInt(meta[0], 10), meta[1]] : [field === 'src' ? 0 : 1, origins[k]];
        lines = this.rawLines(name, file).map((l) => l.split('\t')[index] ?? '');
      } else if (entry.format === 'plain-text' || (entry.format === 'wmt-addition' && !origins[k].endsWith('.sgm'))) {
        lines = this.rawLines(name, origins[k]).map(pyRstrip);
      } else if (field.startsWith('src') || field.startsWith('ref')) {
        lines = this.rawLines(name, origins[k])
          .filter((l) => l.startsWith('<seg '))
          .map((l) => pyJoinSplit(l.replace(/<seg[^\n]*?>([^\n]*)<\/seg>/g, '$1')));
      } else {
        lines = [];
        let value = '';
        const attr = new RegExp(`${field}="([^\\n]*?)"`);
        for (const l of this.rawLines(name, origins[k])) {
          if (l.startsWith('<doc ')) {
            const m = attr.exec(l);
            if (m !== null) value = m[1];
          } else if (l.startsWith('<seg ')) lines.push(value);
        }
      }
      writeLinesAtomic(this.textPath(name, pair, field), lines);
    });
  }

  /** Every field's text file of the pair, processed on first use (sacreBLEU's `get_files`). */
  async files(name: string, pair: string): Promise<string[]> {
    const fields = await this.fieldnames(name, pair);
    const paths = fields.map((f) => this.textPath(name, pair, f));
    if (paths.some((p) => !existsSync(p))) await this.process(name, pair);
    return paths;
  }

  /** The reference files scored against (WMT XML: the table's chosen translators). */
  async referenceFiles(name: string, pair: string): Promise<string[]> {
    const entry = this.entry(name);
    const fields = await this.fieldnames(name, pair);
    const files = await this.files(name, pair);
    let keep: (field: string) => boolean = (f) => f.startsWith('ref');
    if (entry.format === 'wmt-xml') {
      const meta = entry.langpairs[pair];
      const allowed = ((!Array.isArray(meta) ? (meta as { refs?: readonly string[] }).refs : undefined) ?? entry.refs ?? []).map(refField);
      keep = (f) => allowed.includes(f);
    }
    const refs = files.filter((_, k) => keep(fields[k]));
    if (refs.length === 0) throw new InputError('E_BAD_INPUT', `no references found for test set ${name}/${pair}`);
    return refs;
  }

  /**
   * Which segments of the sets (concatenated) `--origlang`/`--subset` keep (sacreBLEU's `filter_subset`), or null
   * when neither is given.
   */
  async keepMask(names: readonly string[], pair: string, origlang: string | null, subset: string | null): Promise<boolean[] | null> {
    if (origlang === null && subset === null) return null;
    const pattern = subset === null ? null : subsetRegExp(subset.startsWith('country:') ? subset.slice(8) : subset);
    const origlangOk = (lang: string): boolean =>
      origlang === null || (origlang.startsWith('non-') ? lang !== origlang.slice(4) : lang === origlang);
    const keep: boolean[] = [];
    for (const name of names) {
      const entry = this.entry(name);
      const raw = this.pairFiles(name, pair)[0];
      if (entry.format === 'wmt-xml') {
        const fields = await this.unwrapXml(name, pair);
        const domains = fields.get('domain');
        fields.get('origlang')!.forEach((lang, i) => {
          const domain = domains?.[i];
          keep.push(origlangOk(lang) && (pattern === null || (domain !== undefined && pattern.test(domain))));
        });
      } else if (raw.endsWith('.sgm')) {
        const tags = pattern === null ? {} : this.table.subsets[name];
        if (tags === undefined) throw new InputError('E_BAD_OPTION', `no subset annotation available for test set ${name}`);
        await this.files(name, pair);
        let include = false;
        for (const line of this.rawLines(name, raw)) {
          if (line.startsWith('<doc ')) {
            include = origlangOk(/^.* origlang="([^"]+)"/.exec(line)?.[1] ?? `${line}\n`);
            if (pattern !== null) {
              const id = /^.* docid="([^"]+)"/.exec(line)?.[1] ?? `${line}\n`;
              if (!pattern.test(Object.hasOwn(tags, id) ? tags[id] : '')) include = false;
            }
          }
          if (line.startsWith('<seg ')) keep.push(include);
        }
      } else {
        throw new InputError('E_BAD_OPTION', `--origlang and --subset work on WMT *.xml and *.sgm test sets, not ${name} (${raw})`);
      }
    }
    return keep;
  }

  /**
   * The original languages the sets' raw files name (sacreBLEU's `get_available_origlangs`): WMT XML documents'
   * `origlang`, and for an `.sgm` source each `<doc` line's (the whole line, as sacreBLEU's substitution leaves it, when
   * the line has none); other formats have none. Sorted, each once.
   */
  async availableOriglangs(names: readonly string[], pair: string): Promise<string[]> {
    const found = new Set<string>();
    for (const name of names) {
      const raw = this.pairFiles(name, pair)[0];
      if (this.entry(name).format === 'wmt-xml') {
        for (const lang of (await this.unwrapXml(name, pair)).get('origlang')!) found.add(lang);
      }
      if (raw.endsWith('.sgm')) {
        await this.download(name);
        for (const line of this.rawLines(name, raw)) {
          if (line.startsWith('<doc ')) found.add(/^.* origlang="([^"]+)"/.exec(line)?.[1] ?? `${line}\n`);
        }
      }
    }
    return [...found].sort();
  }

  /**
   * The subsets `--detail` breaks each original language into (sacreBLEU's `get_available_subsets`): WMT XML
   * documents' `domain`, else the table's annotation of an SGML set, each `COUNTRY-domain` giving `country:COUNTRY` and
   * `domain`. Sorted, each once.
   */
  async availableSubsets(names: readonly string[], pair: string): Promise<string[]> {
    const found = new Set<string>();
    for (const name of names) {
      if (this.entry(name).format === 'wmt-xml') {
        for (const domain of (await this.unwrapXml(name, pair)).get('domain') ?? []) found.add(domain);
      } else if (Object.hasOwn(this.table.subsets, name)) {
        for (const tag of Object.values(this.table.subsets[name])) {
          const parts = tag.split('-');
          if (parts.length < 2) throw new InputError('E_BAD_INPUT', `test set ${name}: subset annotation ${JSON.stringify(tag)} is not COUNTRY-domain`);
          found.add(`country:${parts[0]}`);
          found.add(parts[1]);
        }
      }
    }
    return [...found].sort();
  }
}

function subsetRegExp(source: string): RegExp {
  try {
    return new RegExp(source);
  } catch (err) {
    throw new InputError('E_BAD_OPTION', `--subset ${JSON.stringify(source)} is not a regular expression: ${(err as Error).message}`);
  }
}

/** sacreBLEU's checks of `-t` and `-l` before scoring or echoing. */
function checkPairs(sets: TestSets, t: TestSetOptions): { names: readonly string[]; pair: string } {
  const names = t.testSets!;
  for (const name of names) sets.entry(name);
  if (t.languagePair === null) {
    throw new InputError('E_BAD_OPTION', 'a test set (-t) needs a language pair (-l); see --list -t SET for its pairs');
  }
  for (const name of names) sets.pairFiles(name, t.languagePair);
  return { names, pair: t.languagePair };
}

/**
 * `--download`, `--list`, `--citation` and `--echo`, in sacreBLEU's order of precedence: what goes to stdout.
 * Returns null when none is given.
 */
export async function testSetCommand(t: TestSetOptions, io: CliIo, quiet: boolean): Promise<string | null> {
  const sets = new TestSets(io.env ?? {}, (m) => {
    if (!quiet) io.stderr.write(`palette: ${m}\n`);
  });
  if (t.download !== null) {
    if (t.languagePair === null) await sets.download(t.download);
    else {
      sets.entry(t.download);
      await sets.files(t.download, t.languagePair);
    }
    return '';
  }
  if (t.list) {
    const out: string[] = [];
    if (t.testSets !== null) {
      for (const name of t.testSets) {
        const pairs = t.languagePair !== null ? [t.languagePair] : Object.keys(sets.entry(name).langpairs);
        for (const pair of pairs) out.push(`${pair}: ${(await sets.fieldnames(name, pair)).join(', ')}`);
      }
    } else {
      const datasets = sets.table.datasets;
      let names = Object.keys(datasets);
      if (t.languagePair !== null) {
        const { source, target } = (await import('./language.js')).splitLanguagePair(t.languagePair);
        names = names.filter((n) => `${source}-${target}` in datasets[n].langpairs || `${target}-${source}` in datasets[n].langpairs);
        out.push(`The available test sets for ${t.languagePair} are:`);
      } else out.push('The available test sets are:');
      for (const name of names.sort()) out.push(`${name.padEnd(30)}: ${(datasets[name].description ?? '').trim()}`);
    }
    return out.map((l) => `${l}\n`).join('');
  }
  if (t.citation) {
    if (t.testSets === null) throw new InputError('E_BAD_OPTION', '--citation needs a test set (-t)');
    const out: string[] = [];
    for (const name of t.testSets) {
      const citation = sets.entry(name).citation;
      if (citation === undefined) io.stderr.write(`palette: warning: no citation found for ${name}\n`);
      else out.push(`${citation}\n`);
    }
    return out.join('');
  }
  if (t.echo !== null) {
    if (t.testSets === null || t.languagePair === null) throw new InputError('E_BAD_OPTION', '--echo needs a test set (-t) and a language pair (-l)');
    const { names, pair } = checkPairs(sets, t);
    const out: string[] = [];
    for (const name of names) {
      const fieldnames = await sets.fieldnames(name, pair);
      let requested = [...t.echo];
      if (requested.includes('all')) {
        if (requested.length !== 1) throw new InputError('E_BAD_OPTION', '--echo all goes alone');
        requested = fieldnames;
      }
      const firstRef = fieldnames.filter((f) => f.startsWith('ref')).sort()[0];
      // As sacreBLEU: "ref" stands for the first reference where the set names its references.
      if (!fieldnames.includes('ref')) requested = requested.map((f) => (f === 'ref' && firstRef !== undefined ? firstRef : f));
      for (const f of requested) {
        if (!fieldnames.includes(f)) {
          throw new InputError('E_BAD_OPTION', `no field ${f} in test set ${name} for language pair ${pair}; its fields: ${fieldnames.join(', ')}`);
        }
      }
      const files = await sets.files(name, pair);
      let columns = requested.map((f) => readCachedLines(files[fieldnames.indexOf(f)]));
      const mask = await sets.keepMask([name], pair, t.origlang, t.subset);
      if (mask !== null) columns = columns.map((c) => c.filter((_, i) => mask[i]));
      const n = Math.min(...columns.map((c) => c.length));
      for (let i = 0; i < n; i++) out.push(`${columns.map((c) => pyRstrip(c[i])).join('\t')}\n`);
    }
    return out.join('');
  }
  return null;
}

/**
 * The reference files of a scoring run against `-t` (one list per set, in `-t` order) and the `--origlang`/
 * `--subset` mask over the concatenated segments (null: keep all).
 */
export async function testSetReferences(
  t: TestSetOptions,
  io: CliIo,
  quiet: boolean,
): Promise<{ files: string[][]; mask: boolean[] | null }> {
  const sets = new TestSets(io.env ?? {}, (m) => {
    if (!quiet) io.stderr.write(`palette: ${m}\n`);
  });
  const { names, pair } = checkPairs(sets, t);
  const files: string[][] = [];
  for (const name of names) files.push(await sets.referenceFiles(name, pair));
  return { files, mask: await sets.keepMask(names, pair, t.origlang, t.subset) };
}

/** One group of sacreBLEU's `--detail` report: its label and the segments (of the whole test set) it keeps. */
export interface DetailGroup {
  readonly key: string;
  readonly mask: readonly boolean[];
}

/**
 * The groups of sacreBLEU's `--detail` report on a `-t` run (`print_subset_results`): for each original language of
 * the sets, all its segments (`domain=ALL`) and then those of each subset (`--subset` alone when given, else every
 * domain and country the sets have). Null when the sets name no original language (sacreBLEU then prints "No subset
 * information found").
 */
export async function detailGroups(t: TestSetOptions, io: CliIo, quiet: boolean): Promise<DetailGroup[] | null> {
  const sets = new TestSets(io.env ?? {}, (m) => {
    if (!quiet) io.stderr.write(`palette: ${m}\n`);
  });
  const { names, pair } = checkPairs(sets, t);
  const origlangs = await sets.availableOriglangs(names, pair);
  if (origlangs.length === 0) return null;
  const subsets: (string | null)[] = [null, ...(t.subset !== null ? [t.subset] : await sets.availableSubsets(names, pair))];
  const groups: DetailGroup[] = [];
  for (const origlang of origlangs) {
    for (const subset of subsets) {
      const where = subset === null ? 'domain=ALL' : subset.startsWith('country:') ? `country=${subset.slice(8)}` : `domain=${subset}`;
      groups.push({ key: `origlang=${origlang} ${where}`, mask: (await sets.keepMask(names, pair, origlang, subset))! });
    }
  }
  return groups;
}
