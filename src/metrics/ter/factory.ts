/** How TER's settings become an instance of the flavor they name: the code ./descriptor.ts imports only when a run names TER. */
import { badOption, InputError } from '../../errors.js';
import { cliMetric, type CliMetric, type MetricFactory } from '../descriptor.js';
import { TER_FLAVORS, type TerSettings } from './settings.js';
import { TercomTer } from './tercom-ter.js';
import { Ter } from './ter.js';

/** The TER of `s`: sacreBLEU's (default) or tercom's, with `-d`'s alignment of the chosen reference. */
function createTer(s: TerSettings): CliMetric {
  const flavor = s.flavor ?? 'sacrebleu';
  if (!(TER_FLAVORS as readonly string[]).includes(flavor)) {
    throw badOption('--ter-flavor', `one of ${TER_FLAVORS.join(', ')}`, flavor);
  }
  const text = {
    caseSensitive: s.caseSensitive,
    asianSupport: s.asianSupport,
    noPunct: s.noPunct,
    normalized: s.normalized,
  };
  if (flavor === 'sacrebleu') {
    for (const [flag, value] of [['--ter-beam', s.beamWidth], ['--ter-max-shift-distance', s.maxShiftDistance]] as const) {
      if (value !== undefined) {
        throw new InputError(
          'E_BAD_OPTION',
          `${flag} applies to --ter-flavor tercom (sacreBLEU's search limits are fixed: beam 25, shift distance 50)`,
        );
      }
    }
  }
  const ter =
    flavor === 'tercom'
      ? new TercomTer({ ...text, beamWidth: s.beamWidth, maxShiftDistance: s.maxShiftDistance })
      : new Ter(text);
  return {
    ...cliMetric(ter),
    align(hyp, prepared, segment) {
      // Each flavor aligns against its own prepared references; `prepared` came from this metric's prepareReferences.
      const a =
        ter instanceof TercomTer
          ? ter.alignSegment(hyp, prepared as Parameters<TercomTer['alignSegment']>[1], segment)
          : ter.alignSegment(hyp, prepared as Parameters<Ter['alignSegment']>[1], segment);
      const best = a.perReference[a.bestRef];
      const alignment = best.alignment ?? {
        shifts: [],
        hypOrder: Int32Array.from(a.hypWords, (_, k) => k),
        ops: new Uint8Array(0),
      };
      return {
        reference: a.bestRef,
        hypWords: a.hypWords,
        refWords: a.refWords[a.bestRef],
        shifts: alignment.shifts,
        hypOrder: alignment.hypOrder,
        ops: alignment.ops,
        edits: best.edits,
      };
    },
  };
}

/** TER of the flavor the settings name. */
export const createTerMetric: MetricFactory<TerSettings> = (_id, settings) => createTer(settings);
