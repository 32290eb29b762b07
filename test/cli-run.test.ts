import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run, type CliIo } from '../src/cli/main.js';
import { formatResultsTable } from '../src/cli/report.js';
import type { MetricRegistry } from '../src/metrics/registry.js';
import { fakeRegistry } from './fixtures/cli/fake-metrics.js';

// In-process runs of `palette` against small files written here, with fake metrics whose scores are easy to check
// by hand (score = 100 · hypothesis tokens found in the segment's references / hypothesis tokens).

let dir: string;
const f = (name: string): string => join(dir, name);

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'palette-cli-'));
  writeFileSync(f('ref.txt'), 'the cat sat\non the mat\nhello world\n');
  writeFileSync(f('a.txt'), 'the cat\non a mat\nhello\n'); // 2/2, 2/3, 1/1 → 5/6
  writeFileSync(f('b.txt'), 'a dog sat\nthe mat\nworld\n'); // 1/3, 2/2, 1/1 → 4/6
  writeFileSync(f('a-crlf.txt'), 'the cat  \r\non a mat\r\nhello\t\r\n');
  writeFileSync(f('ref2.tsv'), 'the cat sat\tthe dog\non the mat\ton a mat\nhello world\thello\n');
  writeFileSync(f('ref-alt.txt'), 'x\na\ny\n');
  writeFileSync(f('short.txt'), 'the cat\non a mat\n');
  writeFileSync(f('empty.txt'), '');
  writeFileSync(f('blank-lines.txt'), 'the cat\n\nhello\n');
  writeFileSync(f('bad-utf8.txt'), Buffer.concat([Buffer.from('the cat\non a mat\nhel'), Buffer.from([0xff]), Buffer.from('lo\n')]));
  writeFileSync(f('no-final-newline.txt'), 'the cat\non a mat\nhello');
  mkdirSync(f('a-directory'));
});

afterAll(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

interface Result {
  code: number;
  out: string;
  err: string;
}

async function cli(
  argv: string[],
  options: { stdin?: string | Buffer; env?: Record<string, string>; registry?: MetricRegistry; tty?: boolean } = {},
): Promise<Result> {
  let out = '';
  let err = '';
  const io: CliIo = {
    stdout: { write: (s: string) => (out += s), isTTY: options.tty },
    stderr: { write: (s: string) => (err += s) },
    stdin: options.stdin === undefined ? undefined : Readable.from([Buffer.from(options.stdin)]),
    env: options.env ?? {},
  };
  const code = await run(argv, io, options.registry ?? fakeRegistry().registry);
  return { code, out, err };
}

const SIG = 'nrefs:1|case:mixed|version:0.1.0';

describe('one system', () => {
  it('prints sacrebleu text', async () => {
    const r = await cli(['score', f('ref.txt'), '-i', f('a.txt'), '-m', 'overlap', '-f', 'text']);
    expect(r).toEqual({ code: 0, out: `OVL|${SIG} = 83.3 5/6\n`, err: '' });
  });

  it('prints sacrebleu JSON by default (indent 1, signature fields after the score)', async () => {
    const r = await cli(['score', f('ref.txt'), '-i', f('a.txt'), '-m', 'overlap']);
    expect(r.code).toBe(0);
    expect(r.out).toBe(
      '{\n "name": "OVL",\n "score": 83.3,\n "signature": "nrefs:1|case:mixed|version:0.1.0",\n' +
        ' "verbose_score": "5/6",\n "nrefs": "1",\n "case": "mixed",\n "version": "0.1.0"\n}\n',
    );
  });

  it('honours -w, -b and -sh', async () => {
    expect((await cli(['score', f('ref.txt'), '-i', f('a.txt'), '-m', 'overlap', '-f', 'text', '-w', '4'])).out).toBe(
      `OVL|${SIG} = 83.3333 5/6\n`,
    );
    expect((await cli(['score', f('ref.txt'), '-i', f('a.txt'), '-m', 'overlap', '-b', '-w0'])).out).toBe('83\n');
    expect((await cli(['score', f('ref.txt'), '-i', f('a.txt'), '-m', 'overlap', '-f', 'text', '-sh'])).out).toBe(
      'OVL|#:1|c:mixed|v:0.1.0 = 83.3 5/6\n',
    );
    // JSON lists the signature's fields, so it always carries the long form.
    expect((await cli(['score', f('ref.txt'), '-i', f('a.txt'), '-m', 'overlap', '-sh'])).out).toContain(SIG);
  });

  it('runs metrics in sacrebleu order (sorted by upper-case id) and aligns text lines on "="', async () => {
    const r = await cli(['score', f('ref.txt'), '-i', f('a.txt'), '-m', 'zeta', 'overlap', '-f', 'text']);
    expect(r.out).toBe(` OVL|${SIG} = 83.3 5/6\nZETA|${SIG} = 83.3\n`);
    const json = await cli(['score', f('ref.txt'), '-i', f('a.txt'), '-m', 'zeta', 'overlap']);
    const parsed = JSON.parse(json.out) as { name: string }[];
    expect(parsed.map((p) => p.name)).toEqual(['OVL', 'ZETA']);
  });

  it('drops trailing whitespace and CR of every line, as sacrebleu rstrip()s them', async () => {
    const crlf = await cli(['score', f('ref.txt'), '-i', f('a-crlf.txt'), '-m', 'overlap', '-f', 'text']);
    expect(crlf.out).toBe(`OVL|${SIG} = 83.3 5/6\n`);
  });

  it('accepts a last line without newline and empty lines (an empty segment has no tokens)', async () => {
    expect((await cli(['score', f('ref.txt'), '-i', f('no-final-newline.txt'), '-m', 'overlap', '-b'])).out).toBe('83.3\n');
    expect((await cli(['score', f('ref.txt'), '-i', f('blank-lines.txt'), '-m', 'overlap', '-b'])).out).toBe('100.0\n');
  });

  it('reads tab-separated references with -nr', async () => {
    const r = await cli(['score', f('ref2.tsv'), '-nr', '2', '-i', f('a.txt'), '-m', 'overlap', '-f', 'text']);
    expect(r.out).toBe('OVL|nrefs:2|case:mixed|version:0.1.0 = 100.0 6/6\n');
  });

  it('reads several reference files', async () => {
    const r = await cli(['score', f('ref.txt'), f('ref-alt.txt'), '-i', f('a.txt'), '-m', 'overlap', '-f', 'text']);
    expect(r.out).toBe('OVL|nrefs:2|case:mixed|version:0.1.0 = 100.0 6/6\n');
  });

  it('lets SACREBLEU_FORMAT override -f, and --detail turn JSON into text, as sacrebleu', async () => {
    const env = await cli(['score', f('ref.txt'), '-i', f('a.txt'), '-m', 'overlap'], { env: { SACREBLEU_FORMAT: 'text' } });
    expect(env.out).toBe(`OVL|${SIG} = 83.3 5/6\n`);
    const detail = await cli(['score', f('ref.txt'), '-i', f('a.txt'), '-m', 'overlap', '-d']);
    expect(detail.out).toBe(`OVL|${SIG} = 83.3 5/6\n`);
  });
});

describe('standard input', () => {
  it('reads tab-separated systems from stdin without -i (universal newlines), named "System N"', async () => {
    const r = await cli(['score', f('ref.txt'), '-m', 'overlap', '-f', 'json'], {
      stdin: 'the cat\ta dog sat\r\non a mat\tthe mat\rhello\tworld\n',
    });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toEqual([
      { system: 'System 1', OVL: '83.3' },
      { system: 'System 2', OVL: '66.7' },
    ]);
  });

  it('reads one system from stdin with -i -', async () => {
    const r = await cli(['score', f('ref.txt'), '-i', '-', '-m', 'overlap', '-b'], { stdin: 'the cat\non a mat\nhello\n' });
    expect(r).toEqual({ code: 0, out: '83.3\n', err: '' });
  });

  it('rejects a stdin line with another number of systems, naming the line', async () => {
    const r = await cli(['score', f('ref.txt'), '-m', 'overlap'], { stdin: 'a\tb\nc\nd\te\n' });
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toContain('<stdin>:2:');
  });
});

describe('several systems', () => {
  it('prints the fancy_grid table and the signatures, preparing references once per metric', async () => {
    const { registry, instances } = fakeRegistry();
    const r = await cli(['score', f('ref.txt'), '-i', f('a.txt'), f('b.txt'), f('a-crlf.txt'), '-m', 'overlap', 'zeta', '-f', 'text'], {
      registry,
    });
    expect(r.code).toBe(0);
    const expected = formatResultsTable(
      [f('a.txt'), f('b.txt'), f('a-crlf.txt')],
      [
        { name: 'OVL', signature: SIG, scores: ['83.3', '66.7', '83.3'] },
        { name: 'ZETA', signature: SIG, scores: ['83.3', '66.7', '83.3'] },
      ],
      { format: 'text', width: 1, color: false },
    );
    expect(r.out).toBe(`${expected}\n`);
    expect(r.err).toBe('palette: Found 3 systems.\n');
    expect(instances.map((m) => m.prepared)).toEqual([1, 1]);
  });

  it('prints a JSON list, a LaTeX table, and nothing on stderr with -q', async () => {
    const json = await cli(['score', f('ref.txt'), '-i', f('a.txt'), f('b.txt'), '-m', 'overlap', '-q']);
    expect(json.err).toBe('');
    expect(json.out).toBe(
      `[\n    {\n        "system": ${JSON.stringify(f('a.txt'))},\n        "OVL": "83.3"\n    },\n` +
        `    {\n        "system": ${JSON.stringify(f('b.txt'))},\n        "OVL": "66.7"\n    }\n]\n`,
    );
    const latex = await cli(['score', f('ref.txt'), '-i', f('a.txt'), f('b.txt'), '-m', 'overlap', '-f', 'latex', '-q']);
    expect(latex.out.startsWith('\\begin{tabular}{rc}\n\\toprule\n')).toBe(true);
    expect(latex.out).toContain('\\bottomrule\n\\end{tabular}\n\n-----------------\nMetric signatures\n');
  });

  it('colours table headers only on a terminal, never with -nc or NO_COLOR', async () => {
    const argv = ['score', f('ref.txt'), '-i', f('a.txt'), f('b.txt'), '-m', 'overlap', '-f', 'text', '-q'];
    expect((await cli(argv, { tty: true })).out).toContain('\x1b[36m');
    expect((await cli([...argv, '-nc'], { tty: true })).out).not.toContain('\x1b[');
    expect((await cli(argv, { tty: true, env: { NO_COLOR: '1' } })).out).not.toContain('\x1b[');
    expect((await cli(argv)).out).not.toContain('\x1b[');
  });
});

describe('sentence level (-sl)', () => {
  it('prints one sacrebleu text line per segment', async () => {
    const r = await cli(['score', f('ref.txt'), '-i', f('a.txt'), '-m', 'overlap', '-sl']);
    expect(r.out).toBe(`OVL|${SIG} = 100.0 2/2\nOVL|${SIG} = 66.7 2/3\nOVL|${SIG} = 100.0 1/1\n`);
  });

  it('prints one JSON object per line with an explicit -f json', async () => {
    const r = await cli(['score', f('ref.txt'), '-i', f('a.txt'), '-m', 'overlap', '-sl', '-f', 'json']);
    const lines = r.out.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toBe(
      '{"name": "OVL", "score": 66.7, "signature": "nrefs:1|case:mixed|version:0.1.0", "verbose_score": "2/3", ' +
        '"nrefs": "1", "case": "mixed", "version": "0.1.0"}',
    );
  });

  it('writes rows for several metrics or several systems (JSON lines by default), and refuses text and latex there (exit 2)', async () => {
    const metrics = await cli(['score', f('ref.txt'), '-i', f('a.txt'), '-m', 'overlap', 'zeta', '-sl']);
    expect(metrics.code).toBe(0);
    expect(metrics.out.trimEnd().split('\n').map((l) => Object.keys(JSON.parse(l) as object))).toEqual(
      Array(3).fill(['system', 'segment', 'OVL', 'ZETA']),
    );
    const systems = await cli(['score', f('ref.txt'), '-i', f('a.txt'), f('b.txt'), '-m', 'overlap', '-sl', '-f', 'csv']);
    expect(systems.out.split('\n')[0]).toBe('system,id,OVL');
    expect(systems.out.trimEnd().split('\n')).toHaveLength(7);
    for (const format of ['text', 'latex']) {
      const refused = await cli(['score', f('ref.txt'), '-i', f('a.txt'), f('b.txt'), '-m', 'overlap', '-sl', '-f', format]);
      expect([refused.code, refused.out]).toEqual([2, '']);
      expect(refused.err).toContain(`writes rows: -f json (JSON lines), tsv or csv, not ${format}`);
    }
  });
});

describe('bad input: exit 2, one message naming file and line, nothing on stdout, no stack trace', () => {
  const expectInputError = (r: Result, ...fragments: string[]): void => {
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err.startsWith('palette: error: ')).toBe(true);
    expect(r.err.trimEnd().split('\n')).toHaveLength(1);
    expect(r.err).not.toMatch(/\n\s+at /);
    for (const fragment of fragments) expect(r.err).toContain(fragment);
  };

  it('line-count mismatch', async () => {
    expectInputError(await cli(['score', f('ref.txt'), '-i', f('short.txt'), '-m', 'overlap']), `${f('short.txt')}:3:`, 'line-count mismatch', '2 lines', '3');
  });

  it('missing hypothesis or reference file', async () => {
    expectInputError(await cli(['score', f('ref.txt'), '-i', f('nope.txt'), '-m', 'overlap']), `${f('nope.txt')}: no such file`);
    expectInputError(await cli(['score', f('nope-ref.txt'), '-i', f('a.txt'), '-m', 'overlap']), `${f('nope-ref.txt')}: no such file`);
  });

  it('unreadable file (a directory)', async () => {
    expectInputError(await cli(['score', f('ref.txt'), '-i', f('a-directory'), '-m', 'overlap']), f('a-directory'), 'directory');
  });

  it('invalid UTF-8, with the line of the first bad byte', async () => {
    expectInputError(await cli(['score', f('ref.txt'), '-i', f('bad-utf8.txt'), '-m', 'overlap']), `${f('bad-utf8.txt')}:3:`, 'invalid UTF-8', '0xff');
  });

  it('empty (0-byte) hypothesis or reference file', async () => {
    expectInputError(await cli(['score', f('ref.txt'), '-i', f('empty.txt'), '-m', 'overlap']), `${f('empty.txt')}: empty input`);
    expectInputError(await cli(['score', f('empty.txt'), '-i', f('a.txt'), '-m', 'overlap']), `${f('empty.txt')}: empty input`);
  });

  it('unknown metric, tokenizer, flag or command; bad values', async () => {
    expectInputError(await cli(['score', f('ref.txt'), '-i', f('a.txt'), '-m', 'rouge']), 'unknown metric "rouge"', 'overlap, zeta');
    expectInputError(await cli(['score', f('ref.txt'), '-i', f('a.txt'), '-tok', 'moses']), 'unknown tokenizer "moses"', '13a');
    expectInputError(await cli(['score', f('ref.txt'), '-i', f('a.txt'), '--frobnicate']), 'unrecognized option "--frobnicate"');
    expectInputError(await cli(['rouge', f('ref.txt')]), 'unknown command "rouge"');
    expectInputError(await cli(['score', f('ref.txt'), '-i', f('a.txt'), '-w', '17']), '--width must be an integer in 0..16');
    expectInputError(await cli(['score', f('ref.txt'), '-i', f('a.txt'), '-f', 'html']), '--format must be one of json, text, latex');
    expectInputError(await cli(['score', f('ref.txt'), '-i', f('a.txt'), '-s', 'lin']), '--smooth-method must be one of');
    expectInputError(await cli(['score', f('ref.txt'), '-i', f('a.txt'), '-m']), '-m expects at least one value');
    expectInputError(await cli(['score', '-i', f('a.txt')]), 'no reference file');
  });

  it('significance options in combinations sacrebleu rejects', async () => {
    const two = ['score', f('ref.txt'), '-i', f('a.txt'), f('b.txt'), '-m', 'overlap'];
    expectInputError(await cli([...two, '--paired-bs', '--paired-ar']), '--paired-bs and --paired-ar are mutually exclusive');
    expectInputError(await cli([...two, '--confidence']), 'use paired tests (--paired-bs or --paired-ar) for multiple systems');
  });

  it('a wrong number of tab-separated references, naming the line', async () => {
    expectInputError(await cli(['score', f('ref.txt'), '-nr', '2', '-i', f('a.txt'), '-m', 'overlap']), `${f('ref.txt')}:1:`, 'expected 2');
  });

  it('the same system twice', async () => {
    expectInputError(await cli(['score', f('ref.txt'), '-i', f('a.txt'), f('a.txt'), '-m', 'overlap']), 'given twice');
    expectInputError(await cli(['score', f('ref.txt'), '-i', '-', '-', '-m', 'overlap'], { stdin: 'a\nb\nc\n' }), '"-" is given twice');
  });
});

describe('internal failure', () => {
  it('exits 1 with the message and no stack trace (unless PALETTE_DEBUG)', async () => {
    const r = await cli(['score', f('ref.txt'), '-i', f('a.txt'), '-m', 'boom']);
    expect(r).toEqual({ code: 1, out: '', err: 'palette: internal error: kernel exploded\n' });
    const debug = await cli(['score', f('ref.txt'), '-i', f('a.txt'), '-m', 'boom'], { env: { PALETTE_DEBUG: '1' } });
    expect(debug.err).toMatch(/\n\s+at /);
  });
});

describe('help and version', () => {
  it('prints usage, command help and the version', async () => {
    const none = await cli([]);
    expect(none.code).toBe(2);
    expect(none.err).toContain('usage: palette <command>');
    const help = await cli(['--help']);
    expect([help.code, help.out.includes('score')]).toEqual([0, true]);
    const scoreHelp = await cli(['score', '--help']);
    expect(scoreHelp.code).toBe(0);
    for (const flag of ['--smooth-method', '-tok', '--chrf-word-order', '--bleu-ref-length', '--width', '--format']) {
      expect(scoreHelp.out).toContain(flag);
    }
    expect((await cli(['--version'])).out).toBe('palette 0.1.0\n');
    expect((await cli(['score', '-V'])).out).toBe('palette 0.1.0\n');
  });
});
