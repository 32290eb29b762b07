/**
 * The repository paths that code comments name, for the check that every one of them exists. Comments are found by
 * the TypeScript parser (so strings, template literals and regular expressions are never read as comments), and a
 * path is only what cannot be prose:
 * - rooted at a top-level folder of the repository (`src/…`, `test/…`, `bench/…`, `scripts/…`, `assembly/…`,
 *   `samples/…`, `bin/…`, `docs/…`), or relative (`./…`, `../…`), resolved against the commented file's folder —
 *   except `./` followed by a top-level folder (`./bench/text.ts`), which is how a command run from the repository
 *   root names a file;
 * - ending in a file extension (`src/cli/main.ts`) or a slash (`src/metrics/`, a folder);
 * - not part of a longer word or path (`https://host/src/x.ts`, `nltk/test/x.py` are not the repository's);
 * - not a pattern: a path that goes on with `*`, `{`, `<`, `$` or `[` (`bleu-*.ts`, `src/metrics/<metric>/`) is
 *   left alone, and so is a relative path that leaves the repository (data beside it).
 * A path written with `.js` for a `.ts` source (as imports spell them) counts as that source.
 */
import { existsSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/** The top-level folders a rooted path may start with. */
export const PATH_ROOTS = ['src', 'test', 'bench', 'scripts', 'assembly', 'samples', 'bin', 'docs'] as const;

/** One path named by a comment. */
export interface CommentPath {
  /** The path as written. */
  readonly path: string;
  /** 1-based line of the comment where it is written. */
  readonly line: number;
  /** The repository-relative path it names, `/`-separated. */
  readonly target: string;
}

const BOUNDARY = String.raw`(?<![\w./@+-])`;
const PATH = String.raw`[\w.@+-]+(?:/[\w.@+-]+)*/?`;
const PATH_PATTERN = new RegExp(
  `${BOUNDARY}((?:(?:${PATH_ROOTS.join('|')})/|\\.\\.?/(?:\\.\\./)*)(?:${PATH})?)([*{<$\\[]?)`,
  'g',
);

/** `./bench/…`: a path of a command run from the repository root. */
const ROOTED_COMMAND = new RegExp(`^\\./(?:${PATH_ROOTS.join('|')})/`);

/** The text of every comment of a source file (JS or TS), with the offset where it starts. */
export function comments(fileName: string, text: string): { readonly text: string; readonly pos: number }[] {
  const kind = /\.[cm]?js$/.test(fileName) ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, kind);
  const seen = new Set<number>();
  const out: { text: string; pos: number }[] = [];
  const take = (ranges: readonly ts.CommentRange[] | undefined): void => {
    for (const r of ranges ?? []) {
      if (seen.has(r.pos)) continue;
      seen.add(r.pos);
      out.push({ text: text.slice(r.pos, r.end), pos: r.pos });
    }
  };
  // Every token, not only every node: a comment before a closing brace belongs to no node.
  const visit = (node: ts.Node): void => {
    take(ts.getLeadingCommentRanges(text, node.pos));
    take(ts.getTrailingCommentRanges(text, node.end));
    for (const child of node.getChildren(source)) visit(child);
  };
  visit(source);
  // A shebang line is a comment to the scanner; it names an interpreter, not a file of the repository.
  return out.filter((c) => !c.text.startsWith('#!')).sort((a, b) => a.pos - b.pos);
}

/**
 * The repository paths named in the comments of `file` (repository-relative, `/`-separated), resolved against
 * `root`; patterns and paths outside the repository are left out.
 */
export function commentPaths(root: string, file: string, text: string): CommentPath[] {
  const out: CommentPath[] = [];
  for (const c of comments(file, text)) {
    for (const m of c.text.matchAll(PATH_PATTERN)) {
      if (m[2] !== '') continue;
      // A sentence may end right after a path: its full stop is not part of it.
      const path = m[1].replace(/\.+$/, '');
      const last = path.endsWith('/') ? '' : path.slice(path.lastIndexOf('/') + 1);
      if (!path.endsWith('/') && !/^[^.]+(\.[\w-]+)*\.[A-Za-z0-9]{1,8}$/.test(last)) continue;
      const fromRoot = !path.startsWith('.') || ROOTED_COMMAND.test(path);
      const absolute = fromRoot ? resolve(root, path) : resolve(root, dirname(file), path);
      const target = relative(root, absolute).split(sep).join('/');
      if (target.startsWith('../') || target === '..') continue;
      const line = text.slice(0, c.pos + (m.index ?? 0)).split('\n').length;
      out.push({ path, line, target: path.endsWith('/') ? `${target}/` : target });
    }
  }
  return out;
}

/** Whether a path named by a comment exists (a `.js` path also as its `.ts` source). */
export function pathExists(root: string, target: string): boolean {
  const absolute = join(root, target);
  if (existsSync(absolute)) return true;
  return target.endsWith('.js') && existsSync(absolute.slice(0, -3) + '.ts');
}
