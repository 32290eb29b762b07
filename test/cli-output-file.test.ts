/**
 * The output path of `palette nbest --stats` and `palette report -o`, checked before any work: a directory, a path
 * under a regular file, a missing directory, a folder that refuses new files (/proc), no permission, a read-only file
 * system — each one line naming the file and saying what is wrong in words (never a bare errno code), exit status 2,
 * nothing left behind. Plus what the helper does with targets that are not plain files (a named pipe is written
 * directly, a symbolic link keeps pointing at the file it names) and that it leaves no signal listener installed.
 */
import { spawn, spawnSync } from 'node:child_process';
import {
  chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync, statSync,
  symlinkSync, writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runNbestCommand } from '../src/cli/nbest/command.js';
import { checkOutputFile, openOutputFile, outputFileError } from '../src/cli/output-file.js';
import { cliRunner, expectInputError } from './helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'palette-output-file-'));
const f = (name: string): string => join(dir, name);
const SAMPLE = 'samples/wmt17-en-de';

beforeAll(() => {
  writeFileSync(f('ref'), 'a b c\nd e f\n');
  writeFileSync(f('list'), '0 ||| a b c ||| f= 1 2 ||| -1\n1 ||| d e ||| f= 0 0 ||| -3\n');
  writeFileSync(f('plain'), 'a regular file\n');
  mkdirSync(f('folder'));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const nbest = cliRunner([], runNbestCommand);
const palette = cliRunner();
const nbestTo = (target: string): Promise<Awaited<ReturnType<typeof nbest>>> =>
  nbest(['--nbest', f('list'), '-r', f('ref'), '-m', 'bleu', '--stats', target]);
const reportTo = (target: string): Promise<Awaited<ReturnType<typeof palette>>> =>
  palette(['report', `${SAMPLE}/ref.de`, '-i', `${SAMPLE}/sys/online-B.0.de`, '-m', 'bleu', '--bootstrap', '0', '-o', target]);

/** Escapes a path for a RegExp. */
const re = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** What no message may be: a bare errno code instead of words. */
const BARE_CODE = /\bE[A-Z]{3,}\b/;

describe('a bad output path: exit 2, the file named, what is wrong in words, nothing left behind', () => {
  it('a directory given as the output file', async () => {
    const before = readdirSync(f('folder'));
    for (const [r, command] of [[await nbestTo(f('folder')), 'nbest'], [await reportTo(f('folder')), 'report']] as const) {
      expectInputError(r, command, new RegExp(`: ${re(f('folder'))}: cannot write the output file: it is a directory$`, 'm'));
      expect(r.err).not.toMatch(BARE_CODE);
    }
    expect(readdirSync(f('folder'))).toEqual(before);
    expect(readdirSync(dir).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it('a directory that does not exist (and one two levels down)', async () => {
    const r = await nbestTo(join(f('nowhere'), 'stats'));
    expectInputError(r, 'nbest', new RegExp(`nowhere/stats: cannot write the output file: the directory ${re(f('nowhere'))} does not exist$`, 'm'));
    const deep = await reportTo(join(f('nowhere'), 'deeper', 'r.html'));
    expectInputError(deep, 'report', new RegExp(`the directory ${re(join(f('nowhere'), 'deeper'))} does not exist$`, 'm'));
    expect(existsSync(f('nowhere'))).toBe(false);
  });

  it('a path under a regular file', async () => {
    for (const target of [join(f('plain'), 'stats'), join(f('plain'), 'sub', 'stats')]) {
      const r = await nbestTo(target);
      expectInputError(r, 'nbest', new RegExp(`${re(target)}: cannot write the output file: ${re(f('plain'))} is not a directory$`, 'm'));
    }
    expect(readFileSync(f('plain'), 'utf8')).toBe('a regular file\n');
  });

  it.runIf(existsSync('/proc/version'))('/proc/version: a folder that accepts no new files, not a missing one', async () => {
    const before = readFileSync('/proc/version', 'utf8');
    for (const [r, command] of [[await nbestTo('/proc/version'), 'nbest'], [await reportTo('/proc/version'), 'report']] as const) {
      expectInputError(r, command, /: \/proc\/version: cannot write the output file: no file can be created in \/proc \(no such file or directory\)$/m);
      expect(r.err).not.toMatch(/does not exist/);
    }
    expect(readFileSync('/proc/version', 'utf8')).toBe(before);
  });

  // Permissions do not stop root, so there a read-only bind mount (in a user namespace) stands in.
  it.runIf(process.getuid?.() !== 0)('a folder without write permission', async () => {
    const locked = f('locked');
    mkdirSync(locked);
    chmodSync(locked, 0o555);
    try {
      const r = await nbestTo(join(locked, 'stats'));
      expectInputError(r, 'nbest', new RegExp(`locked/stats: cannot write the output file: permission denied \\(no file can be created in ${re(locked)}\\)$`, 'm'));
      expect(readdirSync(locked)).toEqual([]);
    } finally {
      chmodSync(locked, 0o755);
    }
  });

  const canMountReadOnly = process.platform === 'linux'
    && spawnSync('unshare', ['-rm', 'sh', '-c', `mount --bind -o ro ${dir} ${dir}`]).status === 0;
  it.runIf(canMountReadOnly)('a read-only file system (a read-only bind mount in a user namespace)', () => {
    const ro = f('ro');
    mkdirSync(ro, { recursive: true });
    const args = [fileURLToPath(new URL('../bin/palette', import.meta.url)), 'nbest', '--nbest', f('list'), '-r', f('ref'), '-m', 'bleu', '--stats', join(ro, 'stats')];
    const r = spawnSync('unshare', ['-rm', 'sh', '-c', `mount --bind -o ro "$1" "$1" && shift && exec "$@"`, 'sh', ro, process.execPath, ...args], {
      encoding: 'utf8',
    });
    expect({ status: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual({
      status: 2,
      stdout: '',
      stderr: `palette nbest: error: ${join(ro, 'stats')}: cannot write the output file: ${ro} is on a read-only file system\n`,
    });
    expect(readdirSync(ro)).toEqual([]);
  });
});

describe('the wording of each system error', () => {
  const fail = (code: string, errno: number, message: string): Error => Object.assign(new Error(message), { code, errno });

  it.each([
    ['EACCES', -13, 'permission denied (no file can be created in /data/out)'],
    ['EPERM', -1, 'permission denied (no file can be created in /data/out)'],
    ['EROFS', -30, '/data/out is on a read-only file system'],
    ['EISDIR', -21, 'it is a directory'],
    ['ENOSPC', -28, 'no space left on device'],
    ['EFBIG', -27, 'file too large'],
    ['EIO', -5, 'i/o error'],
  ])('%s', (code, errno, why) => {
    const e = outputFileError(fail(code, errno, `${code}: whatever, open '/data/out/.x.tmp'`), '/data/out/x');
    expect(e.code).toBe('E_FILE_UNWRITABLE');
    expect(e.file).toBe('/data/out/x');
    expect(e.message).toBe(`cannot write the output file: ${why}`);
  });

  it('an error the system has no entry for: its words without the code or the path', () => {
    const e = outputFileError(fail('EWEIRD', 1_000_000, "EWEIRD: something odd happened, write '/x/.y.tmp'"), '/x/y');
    expect(e.message).toBe('cannot write the output file: something odd happened');
  });
});

describe('targets that are not plain files', () => {
  it.runIf(spawnSync('mkfifo', ['--version']).status === 0)('a named pipe is written directly and stays a pipe', async () => {
    const fifo = f('pipe');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const reader = spawn('cat', [fifo]);
    let got = '';
    reader.stdout.on('data', (d: Buffer) => (got += d.toString()));
    const closed = new Promise((r) => reader.on('close', r));
    const r = await nbestTo(fifo);
    await closed;
    expect(r).toEqual({ code: 0, out: '', err: '' });
    expect(got).toBe((await nbest(['--nbest', f('list'), '-r', f('ref'), '-m', 'bleu'])).out);
    expect(lstatSync(fifo).isFIFO()).toBe(true);
    expect(readdirSync(dir).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it('a symbolic link keeps naming its file, which gets the output', async () => {
    mkdirSync(f('real'));
    writeFileSync(f('real/stats'), 'old\n');
    symlinkSync(f('real/stats'), f('link'));
    const r = await nbestTo(f('link'));
    expect(r.code).toBe(0);
    expect(lstatSync(f('link')).isSymbolicLink()).toBe(true);
    expect(readlinkSync(f('link'))).toBe(f('real/stats'));
    expect(readFileSync(f('real/stats'), 'utf8')).toMatch(/^SCORES_TXT_BEGIN_0 0 1 9 BLEU\n/);
    expect(readdirSync(f('real'))).toEqual(['stats']);
  });
});

describe('the helper', () => {
  it('checkOutputFile leaves nothing behind, whether or not the file exists', () => {
    checkOutputFile(f('none'));
    writeFileSync(f('exists'), 'kept\n');
    checkOutputFile(f('exists'));
    expect(readFileSync(f('exists'), 'utf8')).toBe('kept\n');
    expect(existsSync(f('none'))).toBe(false);
    expect(readdirSync(dir).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it('holds signal listeners only while a file is open', async () => {
    const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
    const counts = (): number[] => signals.map((s) => process.listenerCount(s));
    const turns = async (n: number): Promise<void> => {
      for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
    };
    // The runs of the tests above released theirs two turns of the event loop after they closed their files.
    await turns(3);
    const before = counts();
    const a = openOutputFile(f('a'));
    const b = openOutputFile(f('b'));
    expect(counts()).toEqual(before.map((n) => n + 1));
    a.write('a\n');
    a.commit();
    b.abort();
    // Still there right after the last file closed (a signal already on its way is handled), gone two turns later.
    expect(counts()).toEqual(before.map((n) => n + 1));
    await turns(3);
    expect(counts()).toEqual(before);
    expect(readFileSync(f('a'), 'utf8')).toBe('a\n');
    expect(existsSync(f('b'))).toBe(false);
    expect(statSync(dir).isDirectory()).toBe(true);
  });
});
