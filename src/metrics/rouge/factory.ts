/** How ROUGE's settings become an instance of the member `-m` names: the code ./descriptor.ts imports only when a run names ROUGE. */
import { InputError } from '../../errors.js';
import { cliMetric, type CliMetric, type MetricFactory } from '../descriptor.js';
import type { RougeSettings } from './settings.js';
import { defaultRougeFlavor, type RougeOptions } from './options.js';
import { Rouge } from './rouge.js';
import { parseRougeType, rougeTypeId } from './rouge-type.js';

/** Library option names in ./options.ts's messages, and the flags that set them. */
const ROUGE_OPTION_FLAGS: readonly (readonly [string, string])[] = [
  ['alpha and beta', '--rouge-alpha and --rouge-beta'],
  ['alpha/beta', '--rouge-alpha/--rouge-beta'],
  ['alpha', '--rouge-alpha'],
  ['beta', '--rouge-beta'],
  ['multiReference', '--rouge-multi-ref'],
  ['limit', '--rouge-limit'],
  ['tokenizer', '--rouge-tokenizer'],
  ['average', '--rouge-average'],
  ['sentence split', '--split-sentences'],
  ['ROUGE-W weight', '--rouge-w-weight'],
];

function createRouge(id: string, s: RougeSettings): CliMetric {
  const type = parseRougeType(id, s.wWeight);
  // Without --rouge-flavor the library's default applies (the one table of defaults); the message below names it.
  const flavor = s.flavor ?? defaultRougeFlavor(type);
  const options: RougeOptions = {
    // The id, not the parsed type, so that messages show what -m said.
    type: id,
    wWeight: s.wWeight,
    flavor: s.flavor,
    tokenizer: s.tokenizer,
    stem: s.stem,
    removeStopwords: s.removeStopwords,
    alpha: s.alpha,
    beta: s.beta,
    multiReference: s.multiReference,
    split: s.split,
    limit: s.limit,
    average: s.average,
    jackknife: s.jackknife,
  };
  let rouge: Rouge;
  try {
    rouge = new Rouge(options);
  } catch (err) {
    if (!(err instanceof InputError)) throw err;
    // The options' own names become the flags that set them, and a defaulted flavor is said, with the way out.
    let message = err.message;
    for (const [name, flag] of ROUGE_OPTION_FLAGS) {
      if (message.startsWith(`${name} must be`)) {
        message = flag + message.slice(name.length);
        break;
      }
    }
    const given = s.flavor !== undefined;
    const hint = given ? '' : ` (no --rouge-flavor: ${rougeTypeId(type)} follows ${flavor}; choose another with --rouge-flavor)`;
    throw new InputError(err.code, `-m ${id}, ${flavor} flavor: ${message}${hint}`);
  }
  return cliMetric(rouge);
}

/** The ROUGE member `id` names, with its settings. */
export const createRougeMetric: MetricFactory<RougeSettings> = (id, settings) => createRouge(id, settings);
