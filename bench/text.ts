/**
 * Text-layer benchmark: 13a tokenization, interning, and both together (through the tokenized string, and
 * straight from the scanner's token bounds), in tokens per second on one core (13a tokens of the workload
 * divided by the median time of one pass), with intl, the plain regex pipelines and a `pySplit` + `Map`
 * interner as baselines measured in the same run.
 * Workload: WMT17 en-de reference + all system outputs from ../shared when present (16 systems), else the
 * edge-case lines of test/fixtures/edge-tok (not WMT text: the figures are then not comparable).
 * Run: npx tsx -e "import('./bench/text.ts').then(m=>m.benchText())"
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { Bench } from 'tinybench';
import { CsrBuilder } from '../src/text/csr.js';
import { internLine, internLines, internTokens, Vocabulary } from '../src/text/intern.js';
import { pyRstrip, pySplit } from '../src/text/pystr.js';
import { bleuScan, bleuTokenize, getTokenizer, getTokenScanner, TokenBounds } from '../src/text/tokenizers/index.js';
import { tokenize13aRegex } from '../src/text/tokenizers/tokenizer-13a.js';
import { tokenizeIntlRegex } from '../src/text/tokenizers/tokenizer-intl.js';

const WMT17 = new URL('../../shared/data/sacrebleu-tests/wmt17-en-de/', import.meta.url);
const EDGE = new URL('../test/fixtures/edge-tok/inputs.jsonl.gz', import.meta.url);

function splitLines(text: string): string[] {
  const lines = text.split('\n');
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** The benchmark corpus and where it came from. */
function loadCorpus(): { source: string; lines: string[] } {
  if (existsSync(WMT17)) {
    const files = [new URL('ref.de', WMT17)];
    const systems = new URL('systems/', WMT17);
    for (const f of readdirSync(systems).sort()) if (f.endsWith('.de')) files.push(new URL(f, systems));
    const lines = files.flatMap((f) => splitLines(readFileSync(f, 'utf8')));
    return { source: `WMT17 en-de ref.de + ${files.length - 1} systems (../shared)`, lines };
  }
  const records = splitLines(gunzipSync(readFileSync(EDGE)).toString('utf8')).map((l) => JSON.parse(l) as { text?: string });
  return { source: 'test/fixtures/edge-tok inputs (../shared absent; NOT WMT text)', lines: records.flatMap((r) => (r.text === undefined ? [] : [r.text])) };
}

/** Runs the text benchmark and prints the workload and tokens/s (median) for each task. */
export async function benchText(): Promise<void> {
  const { source, lines } = loadCorpus();
  const tok13a = getTokenizer('13a');
  const tokIntl = getTokenizer('intl');
  const scan13a = getTokenScanner('13a');
  const bounds = new TokenBounds();
  const tokenized = lines.map((l) => bleuTokenize(l, tok13a, false));
  const probe = new Vocabulary();
  const csr = internLines(probe, tokenized);
  const tokens = csr.tokens.length;
  let chars = 0;
  for (const l of lines) chars += l.length;
  console.log(`workload: ${source}`);
  console.log(`  ${lines.length} lines, ${chars} chars, ${tokens} 13a tokens, vocabulary ${probe.size}`);

  let sink = 0;
  const bench = new Bench({ time: 2000, iterations: 10, warmup: true });
  bench
    .add('13a tokenize', () => {
      for (const l of lines) sink += bleuTokenize(l, tok13a, false).length;
    })
    .add('intern (fresh vocabulary)', () => {
      sink += internLines(new Vocabulary(), tokenized).tokens.length;
    })
    .add('13a tokenize + intern', () => {
      const vocab = new Vocabulary();
      const out = new CsrBuilder(tokens, lines.length);
      // line by line, as a streaming reader would call it
      for (const l of lines) internLine(vocab, bleuTokenize(l, tok13a, false), out);
      sink += out.finish().tokens.length;
    })
    .add('13a scan + intern (no string)', () => {
      const vocab = new Vocabulary();
      const out = new CsrBuilder(tokens, lines.length);
      for (const l of lines) internTokens(vocab, bleuScan(l, scan13a, false, bounds), bounds, out);
      sink += out.finish().tokens.length;
    })
    .add('intl tokenize', () => {
      for (const l of lines) sink += bleuTokenize(l, tokIntl, false).length;
    })
    .add('baseline: regex 13a tokenize', () => {
      for (const l of lines) sink += tokenize13aRegex(pyRstrip(l)).length;
    })
    .add('baseline: regex intl tokenize', () => {
      for (const l of lines) sink += tokenizeIntlRegex(pyRstrip(l)).length;
    })
    .add('baseline: pySplit + Map intern', () => {
      const map = new Map<string, number>();
      for (const l of tokenized) {
        for (const t of pySplit(l)) {
          let id = map.get(t);
          if (id === undefined) map.set(t, (id = map.size));
          sink += id;
        }
      }
    });
  await bench.run();

  console.log(`${'task'.padEnd(34)} ${'median ms'.padStart(10)} ${'Mtokens/s'.padStart(10)}  ±rme`);
  for (const task of bench.tasks) {
    const r = task.result;
    if (r.state !== 'completed') {
      console.log(`${task.name.padEnd(34)} ${r.state}`);
      continue;
    }
    const ms = r.latency.p50;
    console.log(
      `${task.name.padEnd(34)} ${ms.toFixed(2).padStart(10)} ${(tokens / ms / 1000).toFixed(2).padStart(10)}  ${r.latency.rme.toFixed(1)}%`,
    );
  }
  if (sink === -1) console.log(sink);
}
