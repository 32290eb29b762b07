/**
 * ROUGE-1.5.5's evaluation configuration: which peer (system) and model (reference) summaries each evaluation unit
 * compares, read from its XML file (`<ROUGE-EVAL>` … `<EVAL ID>` with `PEER-ROOT`, `MODEL-ROOT`, `INPUT-FORMAT
 * TYPE`, `PEERS`/`P ID`, `MODELS`/`M ID`) the way its `readEvals` walks the DOM:
 * - element names match case-insensitively, attribute names (`ID`, `TYPE`) exactly;
 * - an `EVAL` may appear again (its parts merge); units keep the order their ids first appear in;
 * - elements ROUGE does not know are descended into, so an `EVAL` may sit at any depth, and its parts anywhere
 *   inside it; a part outside every `EVAL` belongs to the unit whose id is the empty string, if there is one;
 * - a root or file name is the last text node of its element, stripped of leading and trailing whitespace;
 * - a peer id given twice in one unit keeps the last file; a model id given twice is scored twice, with its last file;
 * - paths are `PEER-ROOT/file` and `MODEL-ROOT/file` (a missing root gives `/file`, as in the Perl), relative to
 *   the working directory, not to the configuration file.
 * Which the Perl stops on (`die`) is an `InputError` here, naming the file and line.
 */
import { InputError } from '../../errors.js';
import { parseRouge155Format, type Rouge155Format } from './summary-format.js';
import type { XmlElement, XmlNode } from './xml.js';

/** One evaluation unit (`<EVAL>`): one peer file per system, the model files, the input format. */
export interface Rouge155Eval {
  /** The unit's id (`EVAL ID`, or 1, 2, … in a `-z` file list). */
  readonly id: string;
  /** `PEER-ROOT`, when given. */
  peerRoot: string | undefined;
  /** `MODEL-ROOT`, when given. */
  modelRoot: string | undefined;
  /** `INPUT-FORMAT TYPE` as written (any case), when given. */
  format: string | undefined;
  /** Peer id → file name (relative to `peerRoot`). */
  readonly peerFiles: Map<string, string>;
  /** Model ids in order, repeats included. */
  readonly modelIds: string[];
  /** Model id → file name (relative to `modelRoot`); undefined when the `M` element has no text. */
  readonly modelFiles: Map<string, string | undefined>;
}

/** A whole configuration: the units in order, and every peer id named anywhere. */
export interface Rouge155Config {
  /** The evaluation units, in the order their ids first appear. */
  readonly evals: readonly Rouge155Eval[];
  /** Every peer id, in the order first seen (ROUGE's `-a` evaluates them in string order). */
  readonly peerIds: readonly string[];
  /** Whether the paths are whole (a `-z` file list) rather than relative to the roots. */
  readonly wholePaths: boolean;
}

/** Perl's `\s` on the decoded (Unicode) strings XML::DOM returns, and `\n`. */
const PERL_UNICODE_SPACE = '[\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]';
const LEADING_SPACE = new RegExp(`^${PERL_UNICODE_SPACE}+`);
const TRAILING_SPACE = new RegExp(`${PERL_UNICODE_SPACE}+$`);

/** ROUGE's `s/^[\n\s]+//; s/[\n\s]+$//`. */
function stripSpace(s: string): string {
  return s.replace(LEADING_SPACE, '').replace(TRAILING_SPACE, '');
}

/** The text of the last text node among `node`'s children, stripped, or undefined when there is none. */
function lastText(node: XmlElement): string | undefined {
  let out: string | undefined;
  for (const child of node.children) if (child.kind === 'text') out = stripSpace(child.data);
  return out;
}

function nameIs(node: XmlElement, name: string): boolean {
  return node.name.toUpperCase() === name;
}

/** Collects the units of an XML configuration. */
class ConfigBuilder {
  readonly evals = new Map<string, Rouge155Eval>();
  readonly peerIds = new Set<string>();

  constructor(private readonly file: string) {}

  private fail(message: string, node: XmlElement): never {
    throw new InputError('E_BAD_INPUT', message, { file: this.file, line: node.line });
  }

  private attribute(node: XmlElement, name: string): string {
    const value = node.attributes.get(name);
    if (value === undefined) this.fail(`<${node.name}> needs a ${name} attribute`, node);
    return value;
  }

  /** The unit `evalId` refers to, which must exist (the Perl dies otherwise). */
  private unit(evalId: string | undefined, node: XmlElement): Rouge155Eval {
    // Outside every EVAL the Perl's id is undef, which reads as the empty string.
    const unit = this.evals.get(evalId ?? '');
    if (unit === undefined) this.fail(`<${node.name}> must be inside an <EVAL ID="…"> element`, node);
    return unit;
  }

  walk(node: XmlNode, evalId: string | undefined): void {
    if (node.kind !== 'element') return;
    if (nameIs(node, 'EVAL')) {
      const id = this.attribute(node, 'ID');
      if (!this.evals.has(id)) {
        this.evals.set(id, {
          id,
          peerRoot: undefined,
          modelRoot: undefined,
          format: undefined,
          peerFiles: new Map(),
          modelIds: [],
          modelFiles: new Map(),
        });
      }
      for (const child of node.children) this.walk(child, id);
    } else if (nameIs(node, 'INPUT-FORMAT')) {
      const format = this.attribute(node, 'TYPE');
      if (parseRouge155Format(format) === undefined) {
        this.fail(`unknown input format TYPE="${format}" (expected SEE, SPL, ISI or SIMPLE)`, node);
      }
      this.unit(evalId, node).format = format;
    } else if (nameIs(node, 'PEER-ROOT') || nameIs(node, 'MODEL-ROOT')) {
      const root = lastText(node);
      if (root === undefined) return;
      const unit = this.unit(evalId, node);
      if (nameIs(node, 'PEER-ROOT')) unit.peerRoot = root;
      else unit.modelRoot = root;
    } else if (nameIs(node, 'PEERS')) {
      for (const child of node.children) {
        if (child.kind !== 'element' || !nameIs(child, 'P')) continue;
        const peerId = this.attribute(child, 'ID');
        this.peerIds.add(peerId);
        const unit = this.unit(evalId, node);
        const file = lastText(child);
        if (file !== undefined) unit.peerFiles.set(peerId, file);
      }
    } else if (nameIs(node, 'MODELS')) {
      for (const child of node.children) {
        if (child.kind !== 'element' || !nameIs(child, 'M')) continue;
        const modelId = this.attribute(child, 'ID');
        const unit = this.unit(evalId, node);
        unit.modelIds.push(modelId);
        const file = lastText(child);
        if (file !== undefined || !unit.modelFiles.has(modelId)) unit.modelFiles.set(modelId, file);
      }
    } else {
      for (const child of node.children) this.walk(child, evalId);
    }
  }
}

/**
 * The evaluation units of a parsed ROUGE-1.5.5 XML configuration.
 * @param root the document's root element
 * @param file the configuration's name, for error messages
 * @throws InputError `E_BAD_INPUT` where ROUGE-1.5.5 stops: a missing `ID`/`TYPE` attribute, an unknown input
 *   format, a part outside any `EVAL`
 */
export function readEvalConfig(root: XmlElement, file: string): Rouge155Config {
  const builder = new ConfigBuilder(file);
  builder.walk(root, undefined);
  return { evals: [...builder.evals.values()], peerIds: [...builder.peerIds], wholePaths: false };
}

/** The path of `peerId`'s summary in `unit`, or undefined when the unit has none for that peer. */
export function peerPath(config: Rouge155Config, unit: Rouge155Eval, peerId: string): string | undefined {
  const file = unit.peerFiles.get(peerId);
  if (file === undefined) return undefined;
  return config.wholePaths ? file : `${unit.peerRoot ?? ''}/${file}`;
}

/** The paths of the unit's model summaries, one per model id (repeats included). */
export function modelPaths(config: Rouge155Config, unit: Rouge155Eval): string[] {
  return unit.modelIds.map((id) => {
    const file = unit.modelFiles.get(id) ?? '';
    return config.wholePaths ? file : `${unit.modelRoot ?? ''}/${file}`;
  });
}

/** The unit's input format, checked: ROUGE-1.5.5 cannot read a summary without one. */
export function unitFormat(unit: Rouge155Eval): Rouge155Format | undefined {
  return unit.format === undefined ? undefined : parseRouge155Format(unit.format);
}
