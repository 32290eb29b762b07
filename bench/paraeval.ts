/**
 * ParaEval speed (issue 7): hypotheses per second on the English-target data of ../shared/data, with three tables.
 *
 * Data: compare-mt TED sk-en (ted.sys1.eng, ted.sys2.eng against ted.ref.eng: 2 × 2,445 tokenized segments, one
 * reference) and SummEval (16 systems × 100 summaries, against reference 0 alone and against all 11 references).
 * Tables:
 *   - `example`: samples/paraphrase/en-para.tsv (hand-written, ~180 pairs);
 *   - `wordnet-exc`: inflected form ↔ base form pairs from ROUGE-1.5.5's WordNet-2.0 exception lists
 *     (../shared/data/rouge155-resources, ~5.9k pairs): morphological variants, the kind of pair seed 001's
 *     "sequence"/"sequenced" is — the largest table that real data here gives (no phrase table is shipped);
 *   - `synthetic`: 200,000 seeded random pairs of 1–3-word phrases drawn from the TED reference vocabulary by word
 *     frequency — not a resource (its sets are noise, and they chain into large sets), a load for the trie and the
 *     matcher: many occurrences per segment, long candidate lists.
 * For each table: load time (streamed from a file), then per workload the references prepared once and every system
 * scored (text → statistics rows), as tinybench medians and CPU time per call; corpus precision/recall are printed
 * so that the figure is for a real computation. Skipped with a message when ../shared is absent.
 *
 * Run: npx tsx bench/index.ts paraeval
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readLines } from '../src/node/read-lines.js';
import { sumRows } from '../src/metrics/metric.js';
import { ParaEval, paraEvalFromStats } from '../src/metrics/paraeval/paraeval.js';
import { loadParaphraseTable, type ParaphraseTable } from '../src/text/paraphrase/index.js';
import { DATA, englishWorkloads, fmt, hasEnglishData, measure } from './english-workloads.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** WordNet-2.0 exception pairs (`inflected base …`) as TSV: inflected form ↔ each base form. */
function wordnetTable(dir: string): string {
  const exc = join(DATA, 'rouge155-resources/WordNet-2.0-Exceptions');
  const lines: string[] = [];
  for (const f of readdirSync(exc).sort()) {
    for (const line of readFileSync(join(exc, f), 'utf8').split('\n')) {
      const [form, ...bases] = line.trim().split(/\s+/);
      for (const base of bases) if (form && base && form !== base) lines.push(`${form.replace(/_/g, ' ')}\t${base.replace(/_/g, ' ')}`);
    }
  }
  const path = join(dir, 'wordnet-exc.tsv');
  writeFileSync(path, lines.join('\n') + '\n');
  return path;
}

/** Seeded random phrase pairs over the TED reference words, drawn by frequency (see the file comment). */
function syntheticTable(dir: string, pairs: number): string {
  const words = readLines(join(DATA, 'compare-mt/example/ted.ref.eng')).flatMap((l) => l.split(' ').filter(Boolean));
  let seed = 12345;
  const rand = (n: number): number => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return (seed >>> 8) % n;
  };
  const phrase = (): string => {
    // Contiguous runs of the corpus, so that multi-word phrases occur in the text.
    const at = rand(words.length - 3);
    return words.slice(at, at + 1 + rand(3)).join(' ');
  };
  const lines = Array.from({ length: pairs }, () => `${phrase()}\t${phrase()}`);
  const path = join(dir, 'synthetic.tsv');
  writeFileSync(path, lines.join('\n') + '\n');
  return path;
}

/** ParaEval benchmarks (see the file comment). */
export async function benchParaEval(): Promise<void> {
  if (!hasEnglishData()) {
    console.log('  ../shared/data is absent: ParaEval benchmark skipped');
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'palette-bench-paraeval-'));
  try {
    const tables: [string, string][] = [
      ['example', join(ROOT, 'samples/paraphrase/en-para.tsv')],
      ['wordnet-exc', wordnetTable(dir)],
      ['synthetic', syntheticTable(dir, 200_000)],
    ];
    const loads = englishWorkloads();
    for (const [label, path] of tables) {
      let table: ParaphraseTable | undefined;
      const load = await measure(() => (table = loadParaphraseTable(path)), label === 'synthetic' ? 3 : 5);
      const { info } = table!;
      const mb = statSync(path).size / 1e6;
      console.log(
        `table ${label}: ${fmt(info.entries)} pairs, ${fmt(info.phrases)} phrases, ${fmt(info.sets)} sets, ` +
          `longest ${table!.maxLength} words, ${fmt(mb, 2)} MB; load median ${fmt(load.median, 1)} ms ` +
          `(${fmt((info.lines / load.median) * 1000)} lines/s, cpu ${fmt(load.cpu, 1)} ms)`,
      );
      const metric = new ParaEval({ table: table! });
      for (const w of loads) {
        const prepared = metric.prepareReferences(w.refs);
        const hyps = w.systems.reduce((n, s) => n + s.length, 0);
        let last: Float64Array = new Float64Array(0);
        const t = await measure(() => {
          for (const s of w.systems) last = metric.segmentStats(s, prepared);
        }, 5);
        const prep = await measure(() => metric.prepareReferences(w.refs), 3);
        const { precision, recall } = paraEvalFromStats(sumRows(last, metric.statsWidth));
        const rate = (ms: number): string => `${fmt((hyps / ms) * 1000).padStart(9)} hyps/s`;
        console.log(
          `  ${w.name.padEnd(38)} score median ${fmt(t.median, 1).padStart(7)} ms = ${rate(t.median)}, ` +
            `cpu ${fmt(t.cpu, 1).padStart(7)} ms = ${rate(t.cpu)}; refs prepared in ${fmt(prep.median, 1)} ms; ` +
            `last system P ${fmt(precision, 4)} R ${fmt(recall, 4)}`,
        );
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
