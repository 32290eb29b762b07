/**
 * sacreBLEU's language and test-set options in `palette score`: `-l` choosing BLEU's tokenizer (and refusing the
 * MeCab defaults this build lacks), and `-t`: download from a local HTTP server on 127.0.0.1 into sacreBLEU's cache
 * layout, md5 check, tar.gz and zip extraction, the SGML and WMT XML layouts, scoring against the cached
 * references, `--echo`, `--list`, `--citation`, `--origlang`, `--subset`, and the errors (bad checksum, server
 * unreachable) that must leave no partial cache entry. The sets are small fixtures made here; no test reaches the
 * internet.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../src/cli/main.js';
import { tarGz, zip } from './helpers/archives.js';
import { captureCli, type CliResult } from './helpers/cli.js';

/**
 * Exit 2, nothing on stdout, and stderr ending in one `palette: error: …` line matching `message` (a download's
 * progress line may come before it).
 */
function expectInputError(r: CliResult, _command: 'score', message: RegExp): void {
  expect(r.code).toBe(2);
  expect(r.out).toBe('');
  const lines = r.err.trimEnd().split('\n');
  expect(lines.filter((l) => !l.startsWith('palette: Downloading '))).toHaveLength(1);
  expect(lines[lines.length - 1]).toMatch(/^palette: error: /);
  expect(lines[lines.length - 1]).toMatch(message);
}

const dir = mkdtempSync(join(tmpdir(), 'palette-testsets-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, lines: string[]): string {
  const path = join(dir, name);
  writeFileSync(path, lines.map((l) => `${l}\n`).join(''));
  return path;
}

const md5 = (b: Buffer): string => createHash('md5').update(b).digest('hex');

const SRC_SGM = [
  '<srcset setid="fx" srclang="any">',
  '<doc sysid="ref" docid="d1" genre="news" origlang="en">',
  '<seg id="1">The  cat sat on the mat .</seg>',
  '<seg id="2">Hello &amp; welcome</seg>',
  '</doc>',
  '<doc sysid="ref" docid="d2" genre="news" origlang="de">',
  '<seg id="1"> Two\tdogs </seg>',
  '</doc>',
  '</srcset>',
].join('\n');
const REF_SGM = SRC_SGM.replace('The  cat sat on the mat .', 'Die Katze saß auf der Matte .')
  .replace('Hello &amp; welcome', 'Hallo &amp; willkommen')
  .replace(' Two\tdogs ', 'Zwei  Hunde')
  .replace('srcset', 'refset');
const FX_TGZ = tarGz({ 'test/newstest-src.en.sgm': SRC_SGM, 'test/newstest-ref.de.sgm': REF_SGM });

const XML = `<?xml version="1.0" encoding="utf-8"?>
<dataset id="fx">
<collection id="general">
<doc id="n1" origlang="en" domain="news">
<src lang="en"><p><seg id="1">One &amp; two</seg><seg id="2">Three</seg></p></src>
<ref lang="de" translator="A"><p><seg id="1">Eins &amp; zwei</seg><seg id="2">Drei   drei</seg></p></ref>
<ref lang="de" translator="B"><p><seg id="1">Eins und zwei</seg><seg id="2"></seg></p></ref>
<hyp system="sysX" language="de"><p><seg id="1">Eins</seg><seg id="2">Drei</seg></p></hyp>
</doc>
<doc id="s1" origlang="de" domain="social">
<src lang="en"><p><seg id="1">Four &#x66;ive</seg><seg id="2">no reference</seg></p></src>
<ref lang="de" translator="A"><p><seg id="1">Vier fünf</seg></p></ref>
<ref lang="de" translator="B"><p><seg id="1">Vier, fünf</seg></p></ref>
<hyp system="sysX" language="de"><p><seg id="1">Vier</seg><seg id="2">x</seg></p></hyp>
</doc>
</collection>
</dataset>
`;
const XML_ZIP = zip({ 'xml/fx.en-de.xml': XML });

const TSV_TGZ = tarGz({ 'MTNT/test.en-fr.tsv': 'id1\tHello there\tBonjour à tous\nid2\tBye\t\n' });
const PLAIN_TGZ = tarGz({ 'plain/test.en': 'A  line \nB line\n' });
const PLAIN_REF_GZ = gzipSync(Buffer.from('Eine Zeile\nB Zeile\n'));
const EXTRA_REF = Buffer.from('Die Katze saß auf der Matte.\nHallo und willkommen\nZwei Hunde\n');

let server: Server;
let base = '';
const hits: string[] = [];
const routes = new Map<string, Buffer>([
  ['/example.test/fx17/test.tgz', FX_TGZ],
  ['/example.test/fxxml/data.zip', XML_ZIP],
  ['/example.test/fxtsv/MTNT.tar.gz', TSV_TGZ],
  ['/example.test/fxplain/plain.tgz', PLAIN_TGZ],
  ['/example.test/fxplain/raw/ref.de.gz', PLAIN_REF_GZ],
  ['/example.test/fxadd/extra.ref', EXTRA_REF],
  // What the real wmt17 URL gets here: not the real archive, so its md5 sum cannot match the table's.
  ['/data.statmt.org/wmt17/translation-task/test.tgz', FX_TGZ],
]);

const TABLE = {
  datasets: {
    fx17: {
      format: 'fake-sgml',
      data: ['http://example.test/fx17/test.tgz'],
      md5: [md5(FX_TGZ)],
      description: 'Fixture SGML set',
      citation: '@misc{fx17, title = {Fixture}}',
      langpairs: { 'en-de': ['test/newstest-src.en.sgm', 'test/newstest-ref.de.sgm'] },
    },
    fxxml: {
      format: 'wmt-xml',
      data: ['http://example.test/fxxml/data.zip'],
      md5: [md5(XML_ZIP)],
      description: 'Fixture XML set',
      langpairs: { 'en-de': ['xml/fx.en-de.xml'] },
      refs: ['A'],
    },
    'fxtsv/test': {
      format: 'tsv',
      data: ['http://example.test/fxtsv/MTNT.tar.gz'],
      md5: [md5(TSV_TGZ)],
      description: 'Fixture TSV set',
      langpairs: { 'en-fr': ['1:MTNT/test.en-fr.tsv', '2:MTNT/test.en-fr.tsv'] },
    },
    fxplain: {
      format: 'plain-text',
      data: ['http://example.test/fxplain/plain.tgz', 'http://example.test/fxplain/raw/ref.de.gz'],
      md5: [md5(PLAIN_TGZ), md5(PLAIN_REF_GZ)],
      description: 'Fixture plain-text set',
      langpairs: { 'en-de': ['plain/test.en', 'fxplain.ref.de.gz'] },
    },
    'fx17/add': {
      format: 'wmt-addition',
      data: ['http://example.test/fx17/test.tgz', 'http://example.test/fxadd/extra.ref'],
      md5: null,
      description: 'Fixture addition set',
      langpairs: { 'en-de': ['test/newstest-src.en.sgm', 'test/newstest-ref.de.sgm', 'fx17_add.extra.ref'] },
    },
  },
  subsets: { fx17: { d1: 'GB-sport', d2: 'US-politics' } },
};

beforeAll(async () => {
  server = createServer((req, res) => {
    hits.push(req.url ?? '');
    const body = routes.get(req.url ?? '');
    if (body === undefined) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  writeFileSync(join(dir, 'table.json'), JSON.stringify(TABLE));
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** A fresh cache folder per call unless one is given. */
function env(cache: string, mirror = base): Record<string, string> {
  return { SACREBLEU: cache, PALETTE_SACREBLEU_MIRROR: mirror, PALETTE_SACREBLEU_TABLE: join(dir, 'table.json') };
}

function score(argv: string[], e: Record<string, string> = {}): Promise<CliResult> {
  return captureCli(run, ['score', ...argv], { env: e });
}

describe('-l SRC-TGT', () => {
  const ref = file('l.ref', ['这是一个测试。', '他们去了北京']);
  const hyp = file('l.hyp', ['这是测试。', '他们去北京了']);

  it('target zh picks the zh tokenizer, as -tok zh', async () => {
    const byLang = await score([ref, '-i', hyp, '-l', 'en-zh', '-f', 'text', '-w', '4']);
    const byTok = await score([ref, '-i', hyp, '-tok', 'zh', '-f', 'text', '-w', '4']);
    expect(byLang.code).toBe(0);
    expect(byLang.out).toBe(byTok.out);
    expect(byLang.out).toMatch(/^BLEU\|nrefs:1\|case:mixed\|eff:no\|tok:zh\|smooth:exp\|version:[^ ]+ = /);
    // chrF takes no language in sacreBLEU
    const chrf = await score([ref, '-i', hyp, '-l', 'en-zh', '-m', 'chrf', '-f', 'text']);
    expect(chrf.out).toBe((await score([ref, '-i', hyp, '-m', 'chrf', '-f', 'text'])).out);
  });

  it('other targets keep 13a; an explicit -tok wins, with sacreBLEU\'s advice for zh', async () => {
    const de = await score([ref, '-i', hyp, '-l', 'zh-de', '-f', 'text']);
    expect(de.out).toContain('|tok:13a|');
    const explicit = await score([ref, '-i', hyp, '-l', 'en-zh', '-tok', 'char', '-f', 'text']);
    expect(explicit.out).toContain('|tok:char|');
    expect(explicit.err).toContain("Consider using the 'zh' or 'spm' tokenizer for Chinese.");
  });

  it('refuses the ja-mecab and ko-mecab defaults and the SentencePiece tokenizers', async () => {
    expectInputError(await score([ref, '-i', hyp, '-l', 'en-ja']), 'score', /ja-mecab.*not available.*-tok/);
    expectInputError(await score([ref, '-i', hyp, '-l', 'en-ko']), 'score', /ko-mecab.*not available/);
    // no BLEU, no tokenizer to choose: sacreBLEU gives the language to BLEU alone
    expect((await score([ref, '-i', hyp, '-l', 'en-ja', '-m', 'chrf', '-b'])).code).toBe(0);
    expect((await score([ref, '-i', hyp, '-l', 'en-ja', '-m', 'bleu', '--bleu-flavor', 'nltk', '-b'])).code).toBe(0);
    expectInputError(await score([ref, '-i', hyp, '-tok', 'flores200']), 'score', /flores200.*not available/);
    expectInputError(await score([ref, '-i', hyp, '-l', 'ende']), 'score', /SRC-TGT/);
  });
});

describe('-t TESTSET', () => {
  const cache = join(dir, 'cache');
  const hyp17 = file('fx17.hyp', ['Die Katze saß auf Matte .', 'Hallo & willkommen', 'Zwei Hunde']);

  it('downloads into sacreBLEU\'s cache layout and scores against the cached references', async () => {
    const r = await score(['-t', 'fx17', '-l', 'en-de', '-i', hyp17, '-m', 'bleu', 'chrf', '-f', 'text'], env(cache));
    expect(r.code).toBe(0);
    expect(readdirSync(join(cache, 'fx17', 'raw')).sort()).toEqual(['fx17.test.tgz', 'test']);
    expect(readFileSync(join(cache, 'fx17', 'fx17.en-de.ref'), 'utf8')).toBe(
      'Die Katze saß auf der Matte .\nHallo &amp; willkommen\nZwei Hunde\n',
    );
    expect(readFileSync(join(cache, 'fx17', 'fx17.en-de.origlang'), 'utf8')).toBe('en\nen\nde\n');
    const ref = file('fx17.ref', ['Die Katze saß auf der Matte .', 'Hallo &amp; willkommen', 'Zwei Hunde']);
    expect(r.out).toBe((await score([ref, '-i', hyp17, '-m', 'bleu', 'chrf', '-f', 'text'])).out);
    // the second run uses the cache
    const before = hits.length;
    expect((await score(['-t', 'fx17', '-l', 'en-de', '-i', hyp17, '-f', 'text'], env(cache))).code).toBe(0);
    expect(hits.length).toBe(before);
  });

  it('--echo, --origlang, --subset, --list and --citation', async () => {
    const e = env(cache);
    expect((await score(['-t', 'fx17', '-l', 'en-de', '--echo', 'src', 'ref'], e)).out).toBe(
      'The cat sat on the mat .\tDie Katze saß auf der Matte .\nHello &amp; welcome\tHallo &amp; willkommen\nTwo dogs\tZwei Hunde\n',
    );
    expect((await score(['-t', 'fx17', '-l', 'en-de', '--echo', 'docid', '--origlang', 'non-en'], e)).out).toBe('d2\n');
    expect((await score(['-t', 'fx17', '-l', 'en-de', '--echo', 'src', '--subset', 'country:GB'], e)).out).toBe(
      'The cat sat on the mat .\nHello &amp; welcome\n',
    );
    expect((await score(['-t', 'fx17', '--list'], e)).out).toBe('en-de: src, ref, docid, genre, origlang\n');
    const list = await score(['--list', '-l', 'de-en'], e);
    expect(list.out).toMatch(/^The available test sets for de-en are:\n/);
    expect(list.out).toContain(`${'fx17'.padEnd(30)}: Fixture SGML set\n`);
    expect(list.out).toContain('wmt17                         : ');
    expect((await score(['-t', 'fx17', '--citation'], e)).out).toBe('@misc{fx17, title = {Fixture}}\n');
    const only = await score(['-t', 'fx17', '-l', 'en-de', '--origlang', 'de', '-i', file('one.hyp', ['x', 'y', 'Zwei Hunde']), '-m', 'chrf', '-b'], e);
    expect(only.out).toBe('100.0\n');
    expectInputError(await score(['-t', 'fx17', '-l', 'en-de', '--echo', 'ref:B'], e), 'score', /no field ref:B.*src, ref, docid/);
  });

  it('reads WMT XML from a zip: entities, whitespace, segments without a reference, the table\'s translator', async () => {
    const e = env(cache);
    const all = await score(['-t', 'fxxml', '-l', 'en-de', '--echo', 'all'], e);
    expect(all.out).toBe(
      [
        'One & two\tEins & zwei\tEins und zwei\tn1\ten\tEins\tnews',
        'Three\tDrei drei\t\tn1\ten\tDrei\tnews',
        'Four five\tVier fünf\tVier, fünf\ts1\tde\tVier\tsocial',
        '',
      ].join('\n'),
    );
    expect((await score(['-t', 'fxxml', '-l', 'en-de', '--list'], e)).out).toBe('en-de: src, ref:A, ref:B, docid, origlang, sysX, domain\n');
    expect(readFileSync(join(cache, 'fxxml', 'fxxml.en-de.ref-A'), 'utf8')).toBe('Eins & zwei\nDrei drei\nVier fünf\n');
    const hyp = file('xml.hyp', ['Eins & zwei', 'Drei', 'Vier fünf']);
    const r = await score(['-t', 'fxxml', '-l', 'en-de', '-i', hyp, '-f', 'text', '-w', '4'], e);
    const refA = file('xml.refA', ['Eins & zwei', 'Drei drei', 'Vier fünf']);
    expect(r.out).toBe((await score([refA, '-i', hyp, '-f', 'text', '-w', '4'])).out);
    expect((await score(['-t', 'fxxml', '-l', 'en-de', '--echo', 'ref', '--subset', 'soc'], e)).out).toBe('Vier fünf\n');
  });

  it('TSV columns, plain text from a tar.gz and a bare .gz download, WMT additions, and sets joined by commas', async () => {
    const e = env(cache);
    expect((await score(['-t', 'fxtsv/test', '-l', 'en-fr', '--echo', 'src', 'ref'], e)).out).toBe('Hello there\tBonjour à tous\nBye\t\n');
    expect(readFileSync(join(cache, 'fxtsv', 'test', 'fxtsv_test.en-fr.ref'), 'utf8')).toBe('Bonjour à tous\n\n');
    expect((await score(['-t', 'fxplain', '-l', 'en-de', '--echo', 'src', 'ref'], e)).out).toBe('A  line\tEine Zeile\nB line\tB Zeile\n');
    expect(readdirSync(join(cache, 'fxplain', 'raw')).sort()).toEqual(['fxplain.plain.tgz', 'fxplain.ref.de.gz', 'plain']);
    expect((await score(['-t', 'fx17/add', '-l', 'en-de', '--list'], e)).out).toBe('en-de: src, ref:0, ref:1, docid, genre, origlang\n');
    expect((await score(['-t', 'fx17/add', '-l', 'en-de', '--echo', 'ref', 'ref:1', 'origlang'], e)).out).toBe(
      'Die Katze saß auf der Matte .\tDie Katze saß auf der Matte.\ten\nHallo &amp; willkommen\tHallo und willkommen\ten\nZwei Hunde\tZwei Hunde\tde\n',
    );
    // two references each for the addition set; the joined run is the two sets' segments one after the other
    const hyp = file('add.hyp', ['Die Katze saß .', 'Hallo', 'Zwei Hunde']);
    const r = await score(['-t', 'fx17/add', '-l', 'en-de', '-i', hyp, '-m', 'chrf', '-f', 'text'], e);
    expect(r.out).toContain('chrF2|nrefs:2|');
    const joined = await score(['-t', 'fx17,fxplain', '-l', 'en-de', '-i', file('joined.hyp', ['a', 'b', 'c', 'd', 'e']), '-sl', '-m', 'chrf'], e);
    expect(joined.code).toBe(0);
    expect(joined.out.trimEnd().split('\n')).toHaveLength(5);
  });

  it('uses text files another tool left in the cache without downloading', async () => {
    const shared = join(dir, 'cache-shared');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(join(shared, 'fx17'), { recursive: true });
    for (const [field, text] of Object.entries({ src: 'a\nb\n', ref: 'x y z\nb\n', docid: 'd\nd\n', genre: 'n\nn\n', origlang: 'en\nen\n' })) {
      writeFileSync(join(shared, 'fx17', `fx17.en-de.${field}`), text);
    }
    const before = hits.length;
    const r = await score(['-t', 'fx17', '-l', 'en-de', '-i', file('shared.hyp', ['x y z', 'b']), '-m', 'chrf', '-b'], env(shared, 'http://127.0.0.1:1'));
    expect(r.out).toBe('100.0\n');
    expect(hits.length).toBe(before);
  });

  it('a checksum mismatch is an error naming the set and URL, and caches nothing', async () => {
    const fresh = join(dir, 'cache-md5');
    const r = await score(['-t', 'wmt17', '-l', 'en-de', '-i', hyp17], env(fresh));
    expectInputError(r, 'score', /test set wmt17 from http:\/\/127\.0\.0\.1:\d+\/data\.statmt\.org\/wmt17\/translation-task\/test\.tgz: md5 sum/);
    expect(readdirSync(join(fresh, 'wmt17', 'raw'))).toEqual([]);
  });

  it('an unreachable server or a missing file is an error, and caches nothing', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const fresh = join(dir, 'cache-down');
    expectInputError(
      await score(['-t', 'fx17', '-l', 'en-de', '-i', hyp17], env(fresh, `http://127.0.0.1:${port}`)),
      'score',
      new RegExp(`cannot download test set fx17 from http://127\\.0\\.0\\.1:${port}/example\\.test/fx17/test\\.tgz: .*ECONNREFUSED`),
    );
    expect(readdirSync(join(fresh, 'fx17', 'raw'))).toEqual([]);
    expectInputError(await score(['-t', 'wmt17', '-l', 'en-de', '-i', hyp17], env(fresh, `${base}/nothing-here`)), 'score', /HTTP 404/);
    expect(existsSync(join(fresh, 'wmt17', 'raw', 'wmt17.test.tgz'))).toBe(false);
  });

  describe('--detail (sacreBLEU\'s report by original language and subset)', () => {
    /** What palette score prints for the given lines scored as plain files (no -t): the figure a group must show. */
    async function figure(name: string, refs: string[], hyps: string[], metric: string): Promise<string> {
      const r = await score([file(`${name}.ref`, refs), '-i', file(`${name}.hyp`, hyps), '-m', metric, '-b']);
      expect(r.code).toBe(0);
      return r.out.trim();
    }
    const REF17 = ['Die Katze saß auf der Matte .', 'Hallo &amp; willkommen', 'Zwei Hunde'];
    const HYP17 = ['Die Katze saß auf Matte .', 'Hallo & willkommen', 'Zwei Hunde'];

    it('SGML set: every original language, alone and by country and domain of the table\'s annotation, metrics in -m order', async () => {
      const e = env(cache);
      const r = await score(['-t', 'fx17', '-l', 'en-de', '-i', hyp17, '-m', 'chrf', 'bleu', '-d'], e);
      expect(r.code).toBe(0);
      const plain = await score(['-t', 'fx17', '-l', 'en-de', '-i', hyp17, '-m', 'chrf', 'bleu', '-f', 'text'], e);
      const en = [REF17.slice(0, 2), HYP17.slice(0, 2)];
      const de = [REF17.slice(2), HYP17.slice(2)];
      const fig = {
        enChrf: await figure('d-en', en[0], en[1], 'chrf'),
        enBleu: await figure('d-en', en[0], en[1], 'bleu'),
        deChrf: await figure('d-de', de[0], de[1], 'chrf'),
        deBleu: await figure('d-de', de[0], de[1], 'bleu'),
      };
      // sacreBLEU pads the label to the longest plus one ('origlang=de domain=politics') and the names to the longest.
      const group = (key: string, n: number, lang: 'en' | 'de'): string[] => [
        `${key.padEnd(28)}: sentences=${String(n).padEnd(6)} chrF2 = ${lang === 'en' ? fig.enChrf : fig.deChrf}`,
        `${key.padEnd(28)}: sentences=${String(n).padEnd(6)} BLEU  = ${lang === 'en' ? fig.enBleu : fig.deBleu}`,
      ];
      expect(r.out).toBe(
        plain.out +
          [
            ...group('origlang=de domain=ALL', 1, 'de'),
            ...group('origlang=de country=US', 1, 'de'),
            ...group('origlang=de domain=politics', 1, 'de'),
            ...group('origlang=en domain=ALL', 2, 'en'),
            ...group('origlang=en country=GB', 2, 'en'),
            ...group('origlang=en domain=sport', 2, 'en'),
          ]
            .map((l) => `${l}\n`)
            .join(''),
      );
      // the groups are of the whole set: the first figures differ between the languages
      expect(fig.enChrf).not.toBe(fig.deChrf);
    });

    it('WMT XML set: domains from the documents; --subset scores the run on it and reports it beside each whole language', async () => {
      const e = env(cache);
      const hyp = file('dx.hyp', ['Eins', 'Drei', 'Vier fünf']);
      const r = await score(['-t', 'fxxml', '-l', 'en-de', '-i', hyp, '-m', 'chrf', '--subset', 'soc', '-d', '-w', '2'], e);
      expect(r.code).toBe(0);
      const refA = ['Eins & zwei', 'Drei drei', 'Vier fünf'];
      const hyps = ['Eins', 'Drei', 'Vier fünf'];
      const w2 = async (refs: string[], hs: string[]): Promise<string> => {
        const f = await score([file('dxw.ref', refs), '-i', file('dxw.hyp', hs), '-m', 'chrf', '-b', '-w', '2']);
        return f.out.trim();
      };
      const social = await w2(refA.slice(2), hyps.slice(2));
      const news = await w2(refA.slice(0, 2), hyps.slice(0, 2));
      const lines = r.out.split('\n');
      // the run's own score is on the --subset segments alone
      expect(lines[0]).toMatch(new RegExp(`^chrF2\\|nrefs:1\\|.* = ${social.replace('.', '\\.')}$`));
      expect(lines.slice(1)).toEqual([
        `origlang=de domain=ALL : sentences=1      chrF2 = ${social}`,
        `origlang=de domain=soc : sentences=1      chrF2 = ${social}`,
        `origlang=en domain=ALL : sentences=2      chrF2 = ${news}`,
        '',
      ]);
      // without --subset: every domain
      const all = await score(['-t', 'fxxml', '-l', 'en-de', '-i', hyp, '-m', 'chrf', '-d', '-w', '2'], e);
      expect(all.out.split('\n').slice(1)).toEqual([
        `origlang=de domain=ALL    : sentences=1      chrF2 = ${social}`,
        `origlang=de domain=social : sentences=1      chrF2 = ${social}`,
        `origlang=en domain=ALL    : sentences=2      chrF2 = ${news}`,
        `origlang=en domain=news   : sentences=2      chrF2 = ${news}`,
        '',
      ]);
    });

    it('a set without original languages says so; several systems, -sl and JSON keep sacreBLEU\'s behaviour', async () => {
      const e = env(cache);
      const two = file('dp.hyp', ['Eine Zeile', 'B']);
      const r = await score(['-t', 'fxplain', '-l', 'en-de', '-i', two, '-m', 'chrf', '-d'], e);
      expect(r.code).toBe(0);
      expect(r.out).toMatch(/^chrF2\|nrefs:1\|[^\n]* = [\d.]+\nNo subset information found\. Consider using --origlang argument\.\n$/);
      // several systems: sacreBLEU prints no report
      const other = file('d-other.hyp', ['Die Katze', 'Hallo', 'Zwei Hunde']);
      const multi = await score(['-t', 'fx17', '-l', 'en-de', '-i', hyp17, other, '-m', 'chrf', '-d'], e);
      expect(multi.code).toBe(0);
      expect(multi.out).not.toContain('origlang=');
      expect(multi.out).toBe((await score(['-t', 'fx17', '-l', 'en-de', '-i', hyp17, other, '-m', 'chrf', '-f', 'text'], e)).out);
      const sl = await score(['-t', 'fx17', '-l', 'en-de', '-i', hyp17, '-m', 'chrf', '-d', '-sl'], e);
      expect(sl.out).not.toContain('origlang=');
    });

    it('refuses --origlang, on which sacreBLEU 2.x fails', async () => {
      expectInputError(
        await score(['-t', 'fx17', '-l', 'en-de', '-i', hyp17, '-m', 'chrf', '-d', '--origlang', 'de'], env(cache)),
        'score',
        /--detail with --origlang: sacreBLEU 2\.x fails on it/,
      );
    });
  });

  it('refuses what sacreBLEU refuses', async () => {
    const e = env(cache);
    expectInputError(await score(['-t', 'fx17', '-i', hyp17], e), 'score', /needs a language pair \(-l\)/);
    expectInputError(await score(['-t', 'fx17', '-l', 'fr-de', '-i', hyp17], e), 'score', /no language pair "fr-de".*en-de/);
    expectInputError(await score(['-t', 'nosuchset', '-l', 'en-de', '-i', hyp17], e), 'score', /unknown test set "nosuchset"/);
    expectInputError(await score([hyp17, '-t', 'fx17', '-l', 'en-de', '-i', hyp17], e), 'score', /either a test set \(-t\) or reference files/);
    expectInputError(await score(['-t', 'fxxml', '-l', 'en-de', '-i', hyp17, '--subset', 'x', '--origlang', 'en'], e), 'score', /test set fxxml contains no sentence with origlang=en subset=x/);
    const two = file('two.hyp', ['a', 'b']);
    expectInputError(await score(['-t', 'fxxml', '-l', 'en-de', '-i', two, '--origlang', 'en'], e), 'score', /line-count mismatch: .*two\.hyp has 2 lines, reference .*fxxml\.en-de\.ref-A has 3 .*cached test set may be stale: remove fxxml/);
    expectInputError(await score(['-t', 'fxxml', '-l', 'en-de', '--echo', 'src', '--subset', '('], e), 'score', /--subset "\(" is not a regular expression/);
  });
});
