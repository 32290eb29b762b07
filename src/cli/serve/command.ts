/**
 * `palette serve [--port N]`: serves the offline scoring page (built by `npm run build` into dist/site/) on
 * 127.0.0.1 and prints its URL. Only that folder is served, read-only, and only on the loopback interface: the page
 * scores in the browser and sends nothing back. Runs until interrupted.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { InputError, badOption } from '../../errors.js';
import { formatOptionHelp, parseArgs, type OptionSpec } from '../args.js';
import { reportInputError } from '../input-error-line.js';
import { EXIT_OK, type CliIo } from '../io.js';
import { pyParseInt } from '../py-format.js';

const GROUP = 'palette serve options';
const SPECS: readonly OptionSpec[] = [
  { key: 'help', names: ['--help', '-h'], arity: 'flag', help: 'show this help message and exit', group: GROUP },
  { key: 'port', names: ['--port', '-p'], arity: 'one', metavar: 'N', help: 'port on 127.0.0.1 (default: 8417; 0: any free port)', group: GROUP },
];

/** The port used without `--port`. */
export const DEFAULT_PORT = 8417;

/** The help text of `palette serve`. */
export function serveHelp(): string {
  return (
    'usage: palette serve [--port N]\n\n' +
    'Serves the offline scoring page on http://127.0.0.1:N/ and prints the URL: drop reference and system files,\n' +
    'pick metrics and options, and get the scores with signatures, confidence intervals, paired significance and a\n' +
    "per-segment drill-down (palette report's page), computed in the browser: nothing is uploaded. The page is a\n" +
    'folder of static files (dist/site/ of the package) that any static host can serve too.\n' +
    formatOptionHelp(SPECS) +
    '\n'
  );
}

/**
 * The page's folder: dist/site/ of the package, found from this module in src/cli/serve/, dist/cli/serve/ or the
 * bundled CLI in dist/bundle/.
 * @throws InputError `E_FILE_NOT_FOUND` when the page was not built.
 */
export function siteFolder(): string {
  const candidates = [new URL('../../../dist/site/', import.meta.url), new URL('../site/', import.meta.url)];
  for (const url of candidates) {
    const path = fileURLToPath(url);
    if (existsSync(join(path, 'index.html'))) return path;
  }
  throw new InputError('E_FILE_NOT_FOUND', 'the scoring page is not built (run npm run build)', { file: fileURLToPath(candidates[0]) });
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
};

/** A server of the page's folder on 127.0.0.1 (`port` 0: a free one); resolves once it listens. */
export async function startSiteServer(port: number, root: string = siteFolder()): Promise<{ server: Server; url: string }> {
  const base = normalize(root + sep);
  const server = createServer((req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    let path: string;
    try {
      path = decodeURIComponent(new URL(req.url ?? '/', 'http://127.0.0.1').pathname);
    } catch {
      res.writeHead(400).end();
      return;
    }
    let file = normalize(join(base, path));
    if (!file.startsWith(base)) {
      res.writeHead(404).end();
      return;
    }
    if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
    const type = TYPES[extname(file)];
    if (type === undefined || !existsSync(file)) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    res.writeHead(200, { 'content-type': type, 'cache-control': 'no-cache', 'x-content-type-options': 'nosniff' });
    res.end(req.method === 'HEAD' ? undefined : readFileSync(file));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/` };
}

/**
 * Runs `palette serve` with `argv` (the arguments after `serve`): prints the URL, then serves until the process is
 * interrupted (the returned promise settles when the server closes). A port in use is bad input (exit 2).
 */
export async function runServeCommand(argv: readonly string[], io: CliIo, onListening?: (server: Server) => void): Promise<number> {
  try {
    const { values, positionals } = parseArgs(argv, SPECS);
    if (values.has('help')) {
      io.stdout.write(serveHelp());
      return EXIT_OK;
    }
    if (positionals.length > 0) throw new InputError('E_BAD_OPTION', `unexpected argument "${positionals[0]}": palette serve [--port N]`);
    const raw = values.get('port') as string | undefined;
    const port = raw === undefined ? DEFAULT_PORT : pyParseInt(raw);
    if (port === undefined || port < 0 || port > 65535) throw badOption('--port', 'an integer from 0 to 65535', raw ?? '');
    let started: { server: Server; url: string };
    try {
      started = await startSiteServer(port);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EADDRINUSE') throw new InputError('E_BAD_OPTION', `port ${port} on 127.0.0.1 is in use: give another with --port N (0: any free port)`);
      throw err;
    }
    io.stdout.write(`palette serve: the scoring page is at ${started.url} (Ctrl-C stops)\n`);
    onListening?.(started.server);
    await new Promise<void>((resolve) => started.server.on('close', resolve));
    return EXIT_OK;
  } catch (err) {
    return reportInputError('serve', err, io);
  }
}
