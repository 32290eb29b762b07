/**
 * The README's runnable examples, run: every line of a ```sh block that starts with `$ ` is a command, and the lines
 * after it (up to the next `$ ` or the end of the block) are the standard output it prints, compared byte for byte;
 * `npm start` is compared with the block after "prints:". So the README cannot drift from what Palette does. Also
 * checked: no example uses `../shared` (a clone alone does not have it), and no unquoted shell glob other than a file
 * path (`-m rouge-s*` would expand against the current folder).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { defaultRegistry } from '../src/metrics/registry.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const README = readFileSync(new URL('README.md', `file://${ROOT}`), 'utf8');

/** A command shown with its output. */
interface Example {
  /** 1-based README line of the command. */
  readonly line: number;
  readonly command: string;
  readonly expected: string;
}

/** A fenced code block: its language, first content line (1-based) and lines. */
interface Block {
  readonly lang: string;
  readonly line: number;
  readonly lines: string[];
}

function codeBlocks(text: string): Block[] {
  const blocks: Block[] = [];
  let open: Block | null = null;
  text.split('\n').forEach((l, i) => {
    const fence = /^```(\S*)\s*$/.exec(l);
    if (fence !== null) {
      if (open === null) open = { lang: fence[1], line: i + 2, lines: [] };
      else {
        blocks.push(open);
        open = null;
      }
      return;
    }
    open?.lines.push(l);
  });
  return blocks;
}

function shellExamples(blocks: readonly Block[]): Example[] {
  const out: { line: number; command: string; expected: string[] }[] = [];
  for (const b of blocks) {
    if (b.lang !== 'sh') continue;
    let current: (typeof out)[number] | null = null;
    b.lines.forEach((l, k) => {
      if (l.startsWith('$ ')) {
        current = { line: b.line + k, command: l.slice(2), expected: [] };
        out.push(current);
      } else current?.expected.push(l);
    });
  }
  return out.map((e) => ({ line: e.line, command: e.command, expected: e.expected.join('\n') + '\n' }));
}

/** The environment of a newcomer's shell: none of the variables that change what Palette prints. */
function cleanEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const key of Object.keys(env)) if (/^(SACREBLEU_|PALETTE_|NO_COLOR$|FORCE_COLOR$)/.test(key)) delete env[key];
  return env;
}

function sh(command: string): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync('bash', ['-c', command], { cwd: ROOT, env: cleanEnv(), encoding: 'utf8', timeout: 120_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/**
 * The words of a shell line that hold an unquoted `*` or `?` (a glob bash expands against the folder). `[` is left
 * out: synopsis lines write optional arguments in brackets.
 */
function unquotedGlobs(command: string): string[] {
  const words: string[] = [];
  let word = '';
  let glob = false;
  let quote: string | null = null;
  const end = (): void => {
    if (word !== '' && glob) words.push(word);
    word = '';
    glob = false;
  };
  for (const c of command) {
    if (quote !== null) {
      if (c === quote) quote = null;
      word += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      word += c;
    } else if (/\s/.test(c)) end();
    else {
      if (c === '*' || c === '?') glob = true;
      word += c;
    }
  }
  end();
  return words;
}

const blocks = codeBlocks(README);
const examples = shellExamples(blocks);

describe('README examples', () => {
  it('has runnable examples (the parser found them)', () => {
    expect(examples.length).toBeGreaterThanOrEqual(8);
    expect(libraryBlocks.length).toBeGreaterThanOrEqual(3);
  });

  it.each(examples.map((e) => [e.line, e.command, e] as const))('line %i: $ %s', (_line, command, example) => {
    const r = sh(command);
    expect(r.stderr.split('\n').filter((l) => /error/i.test(l))).toEqual([]);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(example.expected);
  });

  // The library examples (```ts blocks that import 'palette-mt') run against the sources, from the repository root
  // where their sample paths resolve: a renamed export or a changed signature fails here.
  const libraryBlocks = blocks.filter((b) => b.lang === 'ts' && b.lines.some((l) => /from 'palette-mt'/.test(l)));
  it.each(libraryBlocks.map((b) => [b.line, b] as const))('library example at line %i runs', (_line, block) => {
    const dir = mkdtempSync(join(tmpdir(), 'palette-readme-'));
    try {
      const file = join(dir, 'example.mts');
      const entry = pathToFileURL(join(ROOT, 'src', 'index.ts')).href;
      writeFileSync(file, block.lines.join('\n').replaceAll(`from 'palette-mt'`, `from '${entry}'`) + '\n');
      const r = spawnSync(process.execPath, ['--import', 'tsx', file], { cwd: ROOT, env: cleanEnv(), encoding: 'utf8', timeout: 120_000 });
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('npm start prints what the README says', () => {
    const at = README.indexOf('and prints:\n');
    expect(at).toBeGreaterThan(0);
    const block = blocks.find((b) => b.line > README.slice(0, at).split('\n').length);
    const shown = /`npm start` runs `palette ([^`]+)`/.exec(README);
    const start = (JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as { scripts: { start: string } }).scripts.start;
    expect(start).toBe(`node bin/palette ${shown![1]}`);
    const r = sh('npm start --silent');
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(block!.lines.join('\n') + '\n');
  });

  it("the -m row of the flags table names every metric id of palette score", () => {
    const row = README.split('\n').find((l) => l.startsWith('| `-m, --metrics'));
    expect(row).toBeDefined();
    for (const id of defaultRegistry.ids) expect(row, id).toContain(`\`${id}\``);
  });

  it('no code block uses ../shared, which a clone alone does not have', () => {
    for (const b of blocks) expect(b.lines.filter((l) => l.includes('../shared')), `block at line ${b.line}`).toEqual([]);
  });

  it('no shell line has an unquoted glob other than a file path', () => {
    for (const b of blocks.filter((x) => x.lang === 'sh')) {
      for (const l of b.lines) {
        const command = l.startsWith('$ ') ? l.slice(2) : l;
        if (!/^(\$ |\.\/bin\/palette |palette |npm |npx |cd |[A-Z]+=)/.test(l)) continue;
        expect(unquotedGlobs(command).filter((w) => !w.includes('/')), l).toEqual([]);
      }
    }
  });

  it('the glob check catches -m rouge-s* and passes a quoted one and file globs', () => {
    expect(unquotedGlobs("palette orange -m rouge-s* wer")).toEqual(['rouge-s*']);
    expect(unquotedGlobs("palette orange -m 'rouge-s*' \"rouge-su*\" -i sys/*.de")).toEqual(['sys/*.de']);
  });
});
