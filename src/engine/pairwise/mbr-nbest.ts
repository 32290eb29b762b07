/**
 * MBR over a Moses n-best list (`palette mbr --nbest`): the hypotheses of each id, stripped as Python's `strip()`,
 * are that segment's samples and pseudo-references. The list's parsed batches are walked group by group, and a
 * group is decided once the first line of the next one has been parsed (or the list ends): so the first bad input
 * reported is the one the streaming reader meets first, whoever walks the list — `palette mbr` itself, a queue
 * worker over its shard of the list, or a queue run looking for the error a shard reported.
 */
import type { NbestBatch } from '../../corpus/nbest.js';
import { InputError } from '../../errors.js';
import { pyStrip } from '../../text/pystr.js';
import { mbrDecode, type MbrChoice, type MbrDecodeOptions, type Utility } from './index.js';

/** One id's hypotheses (stripped) and the line of its first one. */
export interface NbestGroup {
  readonly id: number;
  readonly line: number;
  readonly hypotheses: string[];
}

/** The groups of consecutive hypotheses with the same id, in list order. */
export async function* nbestGroups(batches: AsyncIterable<NbestBatch> | Iterable<NbestBatch>): AsyncGenerator<NbestGroup> {
  let group: NbestGroup | undefined;
  for await (const batch of batches) {
    for (let k = 0; k < batch.count; k++) {
      if (batch.ids[k] !== group?.id) {
        if (group !== undefined) yield group;
        group = { id: batch.ids[k], line: batch.lines[k], hypotheses: [] };
      }
      group.hypotheses.push(pyStrip(batch.hypotheses[k]));
    }
  }
  if (group !== undefined) yield group;
}

/**
 * Checks that a group can be decided: without self-pairs, a sample needs another.
 * @throws InputError `E_BAD_INPUT` naming `file` and the group's line.
 */
export function checkNbestGroup(group: NbestGroup, file: string, includeSelf: boolean): void {
  if (group.hypotheses.length < 2 && !includeSelf) {
    throw new InputError('E_BAD_INPUT', `id ${group.id} has one hypothesis: MBR scores each against the others (or --include-self)`, { file, line: group.line });
  }
}

/** The MBR choice and utilities of a group (checked by {@link checkNbestGroup}). */
export function decideNbestGroup(
  utility: Utility, group: NbestGroup, file: string, options: Pick<MbrDecodeOptions, 'direction' | 'includeSelf' | 'aggregate'>,
): MbrChoice {
  checkNbestGroup(group, file, options.includeSelf ?? false);
  return mbrDecode(utility, group.hypotheses.map((h) => [h]), options)[0];
}
