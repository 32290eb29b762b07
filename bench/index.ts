/**
 * The one benchmark entry: `npx tsx bench/index.ts [kernel|text|e2e|all]` (default `all`).
 *   - kernel: n-gram statistics kernels alone (bench/kernel.ts)
 *   - text:   tokenization and interning (bench/text.ts)
 *   - e2e:    `palette score` from text files, all WMT17 en-de systems (bench/e2e.ts)
 * Each scope prints its workload and its figures in domain units (hyps/s, tokens/s). Benchmarks never run in tests.
 */

const SCOPES: Record<string, () => Promise<void>> = {
  kernel: async () => (await import('./kernel.js')).benchKernel(),
  text: async () => (await import('./text.js')).benchText(),
  e2e: async () => (await import('./e2e.js')).benchE2e(),
};

async function main(): Promise<void> {
  const scope = process.argv[2] ?? 'all';
  const names = scope === 'all' ? Object.keys(SCOPES) : [scope];
  for (const name of names) {
    const bench = SCOPES[name];
    if (bench === undefined) {
      console.error(`unknown benchmark scope "${scope}" (expected one of: ${[...Object.keys(SCOPES), 'all'].join(', ')})`);
      process.exitCode = 2;
      return;
    }
    console.log(`\n=== ${name} ===`);
    await bench();
  }
}

await main();
