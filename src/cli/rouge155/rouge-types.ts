/**
 * Which ROUGE types a `palette rouge155` run prints, in ROUGE-1.5.5's order and with its names, and the per-unit
 * options of src/metrics/rouge155/unit.ts that compute them.
 *
 * The order and the skip-bigram variants follow ROUGE-1.5.5's main loop: `-n N` gives ROUGE-1..N
 * (`for ($n=1; $n<=N; $n++)`); ROUGE-L unless `-x` or `-3`; `ROUGE-W-<w>` with `-w`; with `-2 d`: for d ≥ 0, `-u`
 * gives `ROUGE-SU<d>` only, else `-U` gives `ROUGE-S<d>` then `ROUGE-SU<d>`, else `ROUGE-S<d>`; for d < 0 the same
 * with `*` for `<d>`; `ROUGE-BE-<mode>` with `-3`. Names carry the values as the user wrote them. A distance d ≥ 0
 * allows gaps of up to ⌊d⌋ words (ROUGE's test is `j ≤ i + d + 1`).
 *
 * The names are needed before any unit is scored: a peer with no unit at all still gets its (zero) averages.
 */
import type { Rouge155UnitOptions } from '../../metrics/rouge155/unit.js';
import type { Rouge155Options } from './options.js';

/** The ROUGE types `options` ask for, in printing order. */
export function rouge155TypeNames(options: Rouge155Options): string[] {
  const names: string[] = [];
  if (options.maxNgram !== undefined) for (let n = 1; n <= options.maxNgram; n++) names.push(`ROUGE-${n}`);
  if (!options.noLcs && options.basicElements === undefined) names.push('ROUGE-L');
  if (options.weight !== undefined) names.push(`ROUGE-W-${options.weight.text}`);
  const skip = options.skipDistance;
  if (skip !== undefined) {
    const suffix = skip.value >= 0 ? skip.text : '*';
    if (options.skipUnigrams) names.push(`ROUGE-SU${suffix}`);
    else names.push(`ROUGE-S${suffix}`, ...(options.skipBoth ? [`ROUGE-SU${suffix}`] : []));
  }
  if (options.basicElements !== undefined) names.push(`ROUGE-BE-${options.basicElements}`);
  return names;
}

/** The per-unit options of a run. */
export function rouge155UnitOptions(options: Rouge155Options): Rouge155UnitOptions {
  const skip = options.skipDistance;
  return {
    maxN: options.maxNgram === undefined ? 0 : Math.max(0, Math.floor(options.maxNgram)),
    wWeight: options.weight?.value,
    wLabel: options.weight?.text,
    skipDistance: skip === undefined ? undefined : skip.value >= 0 ? Math.floor(skip.value) : -1,
    skipLabel: skip?.text,
    su: options.skipUnigrams,
    suAlso: options.skipBoth,
    noLcs: options.noLcs,
    basicElements: options.basicElements,
    stem: options.stem,
    stemModelsOnly: options.stemModelsOnly,
    stopwords: options.removeStopwords,
    limitWords: options.wordLimit,
    limitBytes: options.byteLimit,
    formula: options.scoring,
    alpha: options.alpha,
    countMode: options.counting,
  };
}
