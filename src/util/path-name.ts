/**
 * The last segment of a `/`-separated path and its extension, as Node's `path.posix.basename` and `extname` give
 * them, for code that must run where `node:path` does not exist.
 */

/** The last segment of `path`, trailing `/` ignored (`a/b.de/` → `b.de`, `/` → ``). */
export function baseName(path: string): string {
  let end = path.length;
  while (end > 0 && path.charCodeAt(end - 1) === 0x2f) end--;
  return path.slice(path.lastIndexOf('/', end - 1) + 1, end);
}

/**
 * The extension of a file name, its last dot included (`b.tar.gz` → `.gz`, `a.` → `.`); none (``) without a dot,
 * when the only dot starts the name (`.bashrc`), and for `..`.
 */
export function extName(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot <= 0 || name === '..' ? '' : name.slice(dot);
}
