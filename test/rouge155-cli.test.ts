/**
 * `palette rouge155` end to end (src/cli/rouge155/command.ts with the real per-unit scorer):
 * - byte-identical output against ROUGE-1.5.5.pl's on its SL2003 sample (test/fixtures/rouge155/sl2003: the
 *   printed blocks of peers 11 and 12 for `-a`, `-l 10 -a -m -s`, `-b 75 -a -m`, `-b 75 -a`, and peer 11 with `-d`);
 * - `-t 2` totals and `-t 1 -d` per-unit counts against the golden extracts of test/fixtures/rouge155/
 *   golden-units.json;
 * - `-z` file lists, a peer missing from units (ROUGE's warning, zero averages), Basic Elements (`-3`);
 * - empty summaries score as ROUGE-1.5.5 scores them, against the golden extracts of test/fixtures/rouge/pairs.json
 *   (golden/edge/pairs_rouge155.jsonl: the pairs with an empty peer or model); where ROUGE-1.5.5 dies (a model
 *   without tokens under `-w`), 0 and a warning naming the model file, exit status 0;
 * - bad input: exit status 2, one message naming the file, nothing on standard output.
 */
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { run } from '../src/cli/main.js';
import { runRouge155Command } from '../src/cli/rouge155/command.js';

const SL2003 = new URL('./fixtures/rouge155/sl2003/', import.meta.url).pathname;
/** Scratch directories of this file, removed at the end. */
const TMP = mkdtempSync(join(tmpdir(), 'rouge155-cli-'));
afterAll(() => rmSync(TMP, { recursive: true, force: true }));

const BASE = ['-e', 'data', '-c', '95', '-2', '-1', '-U', '-r', '1000', '-n', '4', '-w', '1.2'];

interface Result {
  status: number;
  stdout: string;
  stderr: string;
}

/** Runs `palette rouge155 ARGV` in `cwd`. */
async function rouge155(cwd: string, ...argv: string[]): Promise<Result> {
  let stdout = '';
  let stderr = '';
  const status = await runRouge155Command(
    argv,
    { stdout: { write: (s: string) => (stdout += s) }, stderr: { write: (s: string) => (stderr += s) } },
    { cwd },
  );
  return { status, stdout, stderr };
}

function expected(name: string): string {
  return readFileSync(join(SL2003, 'expected', name), 'utf8');
}

describe('SL2003: byte-identical to ROUGE-1.5.5.pl', () => {
  it.each([
    ['a', []],
    ['l10-a-m-s', ['-l', '10', '-m', '-s']],
    ['b75-a-m', ['-b', '75', '-m']],
    ['b75-a', ['-b', '75']],
  ])('-c 95 -2 -1 -U -r 1000 -n 4 -w 1.2 %s (peers 11 and 12)', async (name, options) => {
    const out: string[] = [];
    for (const peer of ['11', '12']) {
      const r = await rouge155(SL2003, ...BASE, ...options, 'ROUGE-test.xml', peer);
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
      out.push(r.stdout);
    }
    expect(out.join('')).toBe(expected(`ROUGE-test-c95-2-1-U-r1000-n4-w1.2-${name}.peers-11-12.out`));
  });

  it('-d: per-unit lines in ROUGE order (1, 2, …, 25)', async () => {
    const r = await rouge155(SL2003, ...BASE, '-d', 'ROUGE-test.xml', '11');
    expect(r.stdout).toBe(expected('ROUGE-test-c95-2-1-U-r1000-n4-w1.2-a-d.peer-11.out'));
  });
});

interface GoldenUnits {
  options: string;
  peer: string;
  segment_fields: string[];
  segments: (number | number[])[][];
  counts_totals_t2: Record<string, number[]> | null;
}

const golden = JSON.parse(
  readFileSync(new URL('./fixtures/rouge155/golden-units.json', import.meta.url), 'utf8'),
) as GoldenUnits[];

describe('SL2003: counts against the golden extracts', () => {
  it('-t 2 prints the totals of the counts', async () => {
    const record = golden.find((g) => g.peer === '11' && / -t 0 -a$/.test(g.options) && g.options.includes('-2 4 -u'))!;
    const options = record.options.replace('-t 0', '-t 2').replace(' -a', '').split(' ');
    const r = await rouge155(SL2003, ...options, 'ROUGE-test.xml', '11');
    const lines = r.stdout.split('\n').filter((l) => l.length > 0 && !l.startsWith('---'));
    expect(lines).toEqual(
      Object.entries(record.counts_totals_t2!).map(
        ([name, [m, p, h]]) => `11 ${name} M_count: ${m} P_count: ${p} H_count: ${h}`,
      ),
    );
  });

  it('-t 1 -d prints per-unit counts as Perl prints numbers', async () => {
    const record = golden.find((g) => g.options.includes('-t 1'))!;
    const options = record.options.replace(' -a', '').split(' ');
    const r = await rouge155(SL2003, ...options, '-d', 'ROUGE-test.xml', '11');
    const perUnit = r.stdout.split('\n').filter((l) => l.includes(' Eval '));
    const names = record.segment_fields.slice(1).map((f) => f.replace(/ counts$/, ''));
    const expectedLines = names.flatMap((name, t) =>
      record.segments.map((s) => {
        const [m, p, h] = s[t + 1] as number[];
        return `11 ${name} Eval ${s[0] as number}.11 R:${m} P:${p} F:${h}`;
      }),
    );
    expect(perUnit).toEqual(expectedLines);
    expect(r.stdout).toContain('11 ROUGE-W-1.2 Eval 1.11 R:102.774785242681 P:48.5029301283327 F:1\n');
  });
});

describe('other runs', () => {
  it('a peer missing from every unit: ROUGE warnings on stderr and zero averages', async () => {
    const r = await rouge155(SL2003, '-n', '1', '-x', '-r', '10', 'ROUGE-test.xml', '99');
    expect(r.status).toBe(0);
    expect(r.stderr.split('\n')[0]).toBe('*ROUGE Warning: test instance for peer 99 does not exist for evaluation 1');
    expect(r.stderr.split('\n')).toHaveLength(26);
    expect(r.stdout).toBe(
      '---------------------------------------------\n' +
        ['R', 'P', 'F'].map((x) => `99 ROUGE-1 Average_${x}: 0.00000 (95%-conf.int. 0.00000 - 0.00000)\n`).join(''),
    );
  });

  it('-z: a file list of SPL summaries, peer X, paths relative to the working directory', async () => {
    const dir = mkdtempSync(join(TMP, 'z-'));
    mkdirSync(join(dir, 'spl'));
    writeFileSync(join(dir, 'spl', 'p1.spl'), 'the cat sat on the mat .\nit was happy .\n');
    writeFileSync(join(dir, 'spl', 'm1.spl'), 'the cat sat on the mat .\n');
    writeFileSync(join(dir, 'spl', 'p2.spl'), 'a dog barked .\n');
    writeFileSync(join(dir, 'spl', 'm2.spl'), 'the dog barked loudly .\n');
    writeFileSync(join(dir, 'list.txt'), '# peer model\nspl/p1.spl spl/m1.spl\nspl/p2.spl spl/m2.spl\n');
    const r = await rouge155(dir, '-n', '1', '-x', '-r', '100', '-d', '-z', 'SPL', 'list.txt');
    expect(r.stderr).toBe('');
    // Unit 1: recall 6/6, precision 6/9; unit 2: recall 2/4, precision 2/3.
    expect(r.stdout).toContain('X ROUGE-1 Eval 1.X R:1.00000 P:0.66667 F:0.80000\n');
    expect(r.stdout).toContain('X ROUGE-1 Eval 2.X R:0.50000 P:0.66667 F:0.57143\n');
    const named = await rouge155(dir, '-n', '1', '-x', '-r', '100', '-z', 'SPL', 'list.txt', 'sys');
    expect(named.stdout.split('\n')[1].startsWith('sys ROUGE-1 Average_R: ')).toBe(true);
  });

  it('-3: Basic Elements from SIMPLE files', async () => {
    const dir = mkdtempSync(join(TMP, 'be-'));
    writeFileSync(join(dir, 'peer.be'), 'cat|sat|subj\nmat|the|det\n');
    writeFileSync(join(dir, 'model.be'), 'cat|sat|subj\nmat|a|det\ndog|nil|nil\n');
    writeFileSync(join(dir, 'list.txt'), 'peer.be model.be\n');
    const r = await rouge155(dir, '-3', 'HM', '-r', '10', '-d', '-z', 'SIMPLE', 'list.txt');
    expect(r.stderr).toBe('');
    // HM keeps the pairs with a modifier: the model has 2, the peer 2, one in common.
    expect(r.stdout).toContain('X ROUGE-BE-HM Eval 1.X R:0.50000 P:0.50000 F:0.50000\n');
    const text = await rouge155(dir, '-n', '1', '-3', 'HM', '-z', 'SIMPLE', 'list.txt');
    expect([text.status, text.stderr]).toEqual([
      2,
      'palette rouge155: error: list.txt: evaluation "1": -3 (Basic Elements) reads SIMPLE files, which -n, -w and -2 cannot read\n',
    ]);
  });

  it('-v: accepted with a warning, the output unchanged', async () => {
    const plain = await rouge155(SL2003, '-n', '1', '-r', '10', 'ROUGE-test.xml', '11');
    const verbose = await rouge155(SL2003, '-v', '-n', '1', '-r', '10', 'ROUGE-test.xml', '11');
    expect(verbose.stdout).toBe(plain.stdout);
    expect(verbose.stderr).toBe(
      "palette rouge155: warning: -v is accepted, but ROUGE-1.5.5's debugging output is not printed\n",
    );
  });

  it('types that need no reading: -x alone prints nothing', async () => {
    expect(await rouge155(SL2003, '-x', '-a', 'ROUGE-test.xml')).toEqual({ status: 0, stdout: '', stderr: '' });
  });

  it('usage: -h on stdout (exit 0), no argument on stderr (exit 2); dispatched by palette', async () => {
    const help = await rouge155(SL2003, '-h');
    expect([help.status, help.stderr]).toEqual([0, '']);
    expect(help.stdout.startsWith('palette rouge155\n         [-a (evaluate all systems)]\n')).toBe(true);
    const none = await rouge155(SL2003);
    expect([none.status, none.stdout, none.stderr]).toEqual([2, '', help.stdout]);
    let stdout = '';
    const status = await run(['rouge155', '-H'], {
      stdout: { write: (s: string) => (stdout += s) },
      stderr: { write: () => true },
    });
    expect(status).toBe(0);
    expect(stdout).toContain('  -z: ROUGE-eval-config-file is a list of peer-model pair per line');
  });
});

interface GoldenPair {
  pair: number;
  hyp: string;
  ref: string;
  rouge155?: { nostem: Record<string, [number, number, number] | { error: string }> };
  rouge155_counts?: { nostem: Record<string, [number, number, number] | { error: string }> };
}

/** Per-unit lines of `-d` (`X ROUGE-1 Eval 3.X R:… P:… F:…`) by type and unit number. */
function perUnit(stdout: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const m of stdout.matchAll(/^X (\S+) Eval (\d+)\.X R:(\S+) P:(\S+) F:(\S+)$/gm)) {
    out.set(`${m[1]} ${m[2]}`, [m[3], m[4], m[5]]);
  }
  return out;
}

describe('empty summaries: scored as ROUGE-1.5.5 scores them, exit 0', () => {
  const pairs = (
    JSON.parse(readFileSync(new URL('./fixtures/rouge/pairs.json', import.meta.url), 'utf8')) as GoldenPair[]
  ).filter((p) => p.rouge155 !== undefined && (p.hyp === '' || p.ref === ''));
  const dir = mkdtempSync(join(TMP, 'empty-'));
  // An empty text is a 0-byte file; the others hold the text as one SPL line (the goldens' pairs have no newline).
  const text = (s: string): string => (s === '' ? '' : `${s}\n`);
  for (const p of pairs) {
    writeFileSync(join(dir, `p${p.pair}.spl`), text(p.hyp));
    writeFileSync(join(dir, `m${p.pair}.spl`), text(p.ref));
  }
  writeFileSync(join(dir, 'list.txt'), pairs.map((p) => `p${p.pair}.spl m${p.pair}.spl\n`).join(''));
  const TYPES = ['ROUGE-1', 'ROUGE-2', 'ROUGE-L', 'ROUGE-W-1.2', 'ROUGE-SU4'];

  it('every unit of the golden pairs with an empty peer or model (-t 0 values, -t 2 counts)', async () => {
    expect(pairs.map((p) => p.pair)).toEqual([12, 13, 15, 29, 45, 46, 53, 64, 65, 410]);
    const values = await rouge155(dir, '-n', '2', '-w', '1.2', '-2', '4', '-u', '-d', '-r', '10', '-z', 'SPL', 'list.txt');
    const counts = await rouge155(dir, '-n', '2', '-w', '1.2', '-2', '4', '-u', '-d', '-t', '2', '-z', 'SPL', 'list.txt');
    expect([values.status, counts.status]).toEqual([0, 0]);
    const v = perUnit(values.stdout);
    const c = perUnit(counts.stdout);
    expect(v.size).toBe(pairs.length * TYPES.length);
    let died = 0;
    pairs.forEach((p, u) => {
      for (const type of TYPES) {
        const at = `pair ${p.pair} ${type}`;
        const expected = p.rouge155!.nostem[type];
        if ('error' in expected) {
          // ROUGE-1.5.5 dies ("Illegal division by zero"): Palette scores the model 0.
          died++;
          expect(expected.error, at).toContain('Illegal division by zero');
          expect(v.get(`${type} ${u + 1}`), at).toEqual(['0.00000', '0.00000', '0.00000']);
          continue;
        }
        expect(v.get(`${type} ${u + 1}`)?.map(Number), at).toEqual(expected);
        const n = p.rouge155_counts!.nostem[type] as number[];
        expect(c.get(`${type} ${u + 1}`)?.map(Number), `${at} counts`).toEqual(n);
      }
    });
    expect(died).toBe(7);
  });

  it('warnings on stderr: each empty file once, and each model ROUGE-1.5.5 would die on, by name', async () => {
    const r = await rouge155(dir, '-n', '2', '-w', '1.2', '-r', '10', '-z', 'SPL', 'list.txt');
    expect(r.status).toBe(0);
    const lines = r.stderr.trimEnd().split('\n');
    for (const line of lines) expect(line.startsWith('palette rouge155: warning: ')).toBe(true);
    const emptyPeers = pairs.filter((p) => p.hyp === '').map((p) => `p${p.pair}.spl`);
    const emptyModels = pairs.filter((p) => p.ref === '').map((p) => `m${p.pair}.spl`);
    for (const file of emptyPeers) {
      expect(lines).toContain(
        `palette rouge155: warning: ${file}: empty peer summary (no sentence: SPL format wants one sentence per line); ` +
          'scored as ROUGE-1.5.5 scores it (no tokens)',
      );
    }
    for (const file of emptyModels) {
      expect(lines).toContain(
        `palette rouge155: warning: ${file}: empty model summary (no sentence: SPL format wants one sentence per line); ` +
          'scored as ROUGE-1.5.5 scores it (no tokens)',
      );
    }
    // Models without tokens, empty or not (pairs 29 and 65 have whitespace and punctuation): ROUGE-W would die.
    const dying = pairs.filter((p) => 'error' in p.rouge155!.nostem['ROUGE-W-1.2']);
    for (const p of dying) {
      const u = pairs.indexOf(p) + 1;
      expect(lines).toContain(
        `palette rouge155: warning: m${p.pair}.spl: evaluation ${u}: ROUGE-W-1.2: model 1 has no tokens; scored as 0 ` +
          '(ROUGE-1.5.5 dies here: Illegal division by zero)',
      );
    }
    expect(lines).toHaveLength(emptyPeers.length + emptyModels.length + dying.length);
  });

  it('an XML configuration: an empty peer, an empty model beside a real one (-f A), a SEE file without sentences', async () => {
    const d = mkdtempSync(join(TMP, 'empty-xml-'));
    writeFileSync(join(d, 'empty.spl'), '');
    writeFileSync(join(d, 'blank.spl'), '\n\n');
    writeFileSync(join(d, 'ok.spl'), 'the cat sat on the mat\n');
    writeFileSync(join(d, 'plain.see'), 'a sentence without markup\n');
    writeFileSync(join(d, 'ok.see'), '<a name="1">[1]</a> <a href="#1" id=1>the cat sat on the mat</a>\n');
    const evalUnit = (id: string, format: string, peer: string, models: string[]): string =>
      `<EVAL ID="${id}"><PEER-ROOT>.</PEER-ROOT><MODEL-ROOT>.</MODEL-ROOT><INPUT-FORMAT TYPE="${format}"/>` +
      `<PEERS><P ID="s">${peer}</P></PEERS><MODELS>${models.map((m, k) => `<M ID="${k}">${m}</M>`).join('')}</MODELS></EVAL>`;
    writeFileSync(
      join(d, 'config.xml'),
      '<ROUGE-EVAL version="1.55">\n' +
        [
          evalUnit('1', 'SPL', 'empty.spl', ['ok.spl']),
          evalUnit('2', 'SPL', 'ok.spl', ['blank.spl', 'ok.spl']),
          evalUnit('3', 'SEE', 'plain.see', ['ok.see']),
        ].join('\n') +
        '\n</ROUGE-EVAL>\n',
    );
    const r = await rouge155(d, '-n', '1', '-w', '1.2', '-d', '-r', '10', 'config.xml', 's');
    expect(r.status).toBe(0);
    const v = perUnit(r.stdout.replace(/^s /gm, 'X ').replace(/\.s /g, '.X '));
    // Unit 2 pools the models: the empty one adds no model token, and the peer is counted once per model.
    expect([1, 2, 3].map((u) => v.get(`ROUGE-1 ${u}`))).toEqual([
      ['0.00000', '0.00000', '0.00000'],
      ['1.00000', '0.50000', '0.66667'],
      ['0.00000', '0.00000', '0.00000'],
    ]);
    expect(v.get('ROUGE-W-1.2 2')![0]).toBe((6 ** -0.2).toFixed(5));
    expect(r.stderr.trimEnd().split('\n')).toEqual([
      'palette rouge155: warning: ./empty.spl: empty peer summary (no sentence: SPL format wants one sentence per line); scored as ROUGE-1.5.5 scores it (no tokens)',
      'palette rouge155: warning: ./blank.spl: empty model summary (no sentence: SPL format wants one sentence per line); scored as ROUGE-1.5.5 scores it (no tokens)',
      'palette rouge155: warning: ./blank.spl: evaluation 2: ROUGE-W-1.2: model 1 has no tokens; scored as 0 (ROUGE-1.5.5 dies here: Illegal division by zero)',
      'palette rouge155: warning: ./plain.see: empty peer summary (no sentence: SEE format wants lines like <a name="1">[1]</a> <a href="#1" id=1>sentence); scored as ROUGE-1.5.5 scores it (no tokens)',
    ]);
  });
});

describe('bad input: exit 2, one message naming the file, nothing on stdout', () => {
  const dir = mkdtempSync(join(TMP, 'bad-'));
  const write = (name: string, content: string | Buffer): void => writeFileSync(join(dir, name), content);
  write('ok.spl', 'a sentence\n');
  write('latin1.spl', Buffer.from([0x61, 0x0a, 0x63, 0x61, 0x66, 0xe9, 0x0a]));
  write('ok.see', '<a name="1">[1]</a> <a href="#1" id=1>a sentence</a>\n');
  const xml = (body: string): string => `<ROUGE-EVAL version="1.55">\n${body}\n</ROUGE-EVAL>\n`;
  const unit = (format: string, peer: string, models: string): string =>
    `<EVAL ID="1"><PEER-ROOT>.</PEER-ROOT><MODEL-ROOT>.</MODEL-ROOT><INPUT-FORMAT TYPE="${format}"/>` +
    `<PEERS><P ID="s">${peer}</P></PEERS><MODELS>${models}</MODELS></EVAL>`;
  write('malformed.xml', xml('<EVAL ID="1">\n<PEERS>\n</EVAL>'));
  write('no-model-file.xml', xml(unit('SPL', 'ok.spl', '<M ID="a">missing.spl</M>')));
  write('no-peer-file.xml', xml(unit('SPL', 'missing.spl', '<M ID="a">ok.spl</M>')));
  write('latin1.xml', xml(unit('SPL', 'latin1.spl', '<M ID="a">ok.spl</M>')));
  write('no-models.xml', xml(unit('SPL', 'ok.spl', '')));
  write('no-evals.xml', xml(''));
  write('simple.xml', xml(unit('SIMPLE', 'ok.spl', '<M ID="a">ok.spl</M>')));
  write(
    'no-format.xml',
    xml('<EVAL ID="1"><PEERS><P ID="s">ok.spl</P></PEERS><MODELS><M ID="a">ok.spl</M></MODELS></EVAL>'),
  );

  it.each([
    [['-a', 'missing.xml'], 'missing.xml: configuration file not found'],
    [['-a', 'malformed.xml'], 'malformed.xml:4: malformed XML: mismatched tag: </EVAL> closes <PEERS> of line 3'],
    [['-a', 'no-model-file.xml'], './missing.spl: model summary not found'],
    [['-a', 'no-peer-file.xml'], './missing.spl: peer summary not found'],
    [['-a', 'latin1.xml'], './latin1.spl:2: invalid UTF-8: byte 0xe9 at byte offset 5 cannot be decoded'],
    [['-a', 'no-models.xml'], 'no-models.xml: evaluation "1": no model summary'],
    [['-a', 'no-evals.xml'], 'no-evals.xml: no evaluation unit'],
    [
      ['-a', 'simple.xml'],
      'simple.xml: evaluation "1": input format "SIMPLE": ROUGE-N/L/W/S read only SEE, SPL and ISI files',
    ],
    [
      ['-a', 'no-format.xml'],
      'no-format.xml: evaluation "1": no INPUT-FORMAT: ROUGE-N/L/W/S read only SEE, SPL and ISI files',
    ],
    [['-z', 'SPL', 'missing.txt'], 'missing.txt: file list not found'],
    [['-k', '-a', 'ok.xml'], 'unknown option -k (run "palette rouge155 -h" for the options)'],
    [['-l', '5', '-b', '5', '-a', 'ok.xml'], 'Please specify length limit in words or bytes but not both.'],
  ])('%j', async (argv, message) => {
    const r = await rouge155(dir, ...argv);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.startsWith(`palette rouge155: error: ${message}`)).toBe(true);
    expect(r.stderr.split('\n')).toHaveLength(2);
  });
});
