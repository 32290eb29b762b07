/**
 * The offline scoring page (index.html): the user drops, picks or pastes references and system outputs, chooses
 * metrics and options with `palette report`'s names and defaults, and gets `palette report`'s page, computed here.
 * This thread only gathers inputs and shows progress: reading, scoring and the report run in a worker
 * (./report-worker.ts), so the page stays responsive on large files.
 */
import type { PageInput, ReportReply, ReportRequest } from './protocol.js';

/** The metrics offered, with `palette score -m` names; BLEU and chrF are `palette report`'s defaults. */
const METRICS: readonly { id: string; label: string; checked?: boolean }[] = [
  { id: 'bleu', label: 'BLEU', checked: true },
  { id: 'chrf', label: 'chrF', checked: true },
  { id: 'ter', label: 'TER' },
  { id: 'rouge-1', label: 'ROUGE-1' },
  { id: 'rouge-2', label: 'ROUGE-2' },
  { id: 'rouge-l', label: 'ROUGE-L' },
  { id: 'rouge-lsum', label: 'ROUGE-Lsum' },
  { id: 'nist', label: 'NIST' },
  { id: 'wer', label: 'WER' },
];
/** sacreBLEU's tokenizers (`-tok`); 13a is the default. */
const TOKENIZERS = ['13a', 'intl', 'zh', 'char', 'none'];

interface Doc {
  getElementById(id: string): El | null;
  createElement(tag: string): El;
}
interface El {
  [key: string]: unknown;
  id: string;
  hidden: boolean;
  textContent: string | null;
  value: string;
  checked: boolean;
  disabled: boolean;
  files?: ArrayLike<unknown> & { readonly length: number };
  classList: { add(c: string): void; remove(c: string): void };
  append(...nodes: (El | string)[]): void;
  replaceChildren(...nodes: (El | string)[]): void;
  setAttribute(name: string, value: string): void;
  addEventListener(type: string, f: (e: Ev) => void): void;
  focus(): void;
}
interface Ev {
  preventDefault(): void;
  dataTransfer?: { files: ArrayLike<unknown> & { readonly length: number } } | null;
}

const doc = (globalThis as unknown as { document: Doc }).document;
const web = globalThis as unknown as {
  Worker: new (url: URL, options: { type: 'module' }) => {
    postMessage(m: unknown): void;
    terminate(): void;
    onmessage: ((e: { data: unknown }) => void) | null;
    onerror: ((e: { message?: string }) => void) | null;
  };
  Blob: new (parts: string[], options: { type: string }) => unknown;
  URL: { createObjectURL(b: unknown): string; revokeObjectURL(u: string): void };
};

function $(id: string): El {
  const el = doc.getElementById(id);
  if (el === null) throw new Error(`the page lacks #${id}`);
  return el;
}

/** Files dropped on a zone, kept until the user picks others. */
const dropped = new Map<string, unknown[]>();

function filesOf(inputId: string): unknown[] {
  const picked = Array.from($(inputId).files ?? []);
  return picked.length > 0 ? picked : (dropped.get(inputId) ?? []);
}

function inputsOf(filesId: string, textId: string | undefined, pastedName: string): PageInput[] {
  const files = filesOf(filesId).map((f) => ({ name: (f as { name: string }).name, input: f }));
  if (files.length > 0) return files;
  const text = textId === undefined ? '' : $(textId).value;
  return text === '' ? [] : [{ name: pastedName, input: text.endsWith('\n') ? text : `${text}\n` }];
}

/** `palette report`'s flags for the options chosen. */
function flags(): string[] {
  const out: string[] = [];
  const metrics = METRICS.filter((m) => $(`metric-${m.id}`).checked).map((m) => m.id);
  if (metrics.length > 0) out.push('-m', ...metrics);
  if ($('tokenize').value !== '13a') out.push('-tok', $('tokenize').value);
  if ($('lowercase').checked) out.push('-lc');
  if ($('rouge-stem').checked) out.push('--stem');
  out.push('--bootstrap', $('bootstrap').value.trim() || '0');
  out.push('--seed', $('seed').value.trim() || '12345');
  const paired = $('paired').value;
  if (paired !== '') out.push(`--paired-${paired}`);
  if (paired !== '' && $('all-pairs').checked) out.push('--all-pairs');
  else if (paired !== '' && $('baseline').value !== '') out.push('--baseline', $('baseline').value);
  // Column names may hold spaces, so the score columns of several files are separated by commas.
  if (filesOf('human-files').length > 0) {
    const scores = $('human-score').value.split(',').map((c) => c.trim()).filter((c) => c !== '');
    if (scores.length > 0) out.push('--human-score', ...scores);
    if ($('human-system').value.trim() !== '') out.push('--human-system', $('human-system').value.trim());
    if ($('human-item').value.trim() !== '') out.push('--human-item', $('human-item').value.trim());
  }
  const more = $('flags').value.trim();
  if (more !== '') out.push(...more.split(/\s+/));
  return out;
}

let worker: InstanceType<typeof web.Worker> | undefined;
let reportUrl: string | undefined;

function showError(message: string): void {
  const error = $('error');
  error.textContent = message;
  error.hidden = false;
}

const PHASES = { read: 'Reading files', score: 'Scoring', report: 'Intervals, tests and report' } as const;

function run(): void {
  const error = $('error');
  error.hidden = true;
  $('messages').replaceChildren();
  const refs = inputsOf('refs-files', 'refs-text', 'pasted references');
  const systems = inputsOf('hyps-files', 'hyps-text', 'pasted system');
  const source = inputsOf('source-file', undefined, 'source')[0];
  const human = inputsOf('human-files', undefined, 'human');
  if (refs.length === 0 || systems.length === 0) {
    showError(refs.length === 0 ? 'Give at least one reference file (or paste references).' : 'Give at least one system output file (or paste one).');
    return;
  }
  worker?.terminate();
  worker = new web.Worker(new URL('./report-worker.js', import.meta.url), { type: 'module' });
  const button = $('score');
  button.disabled = true;
  $('progress-row').hidden = false;
  const bar = $('progress');
  bar.value = '0';
  $('status').textContent = 'Scoring…';
  const finish = (): void => {
    button.disabled = false;
    $('progress-row').hidden = true;
    worker?.terminate();
    worker = undefined;
  };
  worker.onmessage = (event) => {
    const reply = event.data as ReportReply;
    if (reply.type === 'progress') {
      bar.value = String(reply.total === 0 ? 1 : reply.done / reply.total);
      $('progress-label').textContent = PHASES[reply.phase];
      return;
    }
    finish();
    if (reply.type === 'error') {
      $('status').textContent = 'Failed.';
      showError(reply.message);
      error.focus();
      return;
    }
    for (const m of [...reply.warnings.map((w) => `warning: ${w}`), ...reply.notes.map((n) => `note: ${n}`)]) {
      const li = doc.createElement('li');
      li.textContent = m;
      $('messages').append(li);
    }
    if (reportUrl !== undefined) web.URL.revokeObjectURL(reportUrl);
    reportUrl = web.URL.createObjectURL(new web.Blob([reply.html], { type: 'text/html' }));
    const frame = $('report');
    frame.setAttribute('src', reportUrl);
    frame.hidden = false;
    const link = $('download');
    link.setAttribute('href', reportUrl);
    link.hidden = false;
    $('status').textContent = `Done: ${systems.length} system${systems.length === 1 ? '' : 's'} scored on ${reply.threads} thread${reply.threads === 1 ? '' : 's'}.`;
  };
  worker.onerror = (event) => {
    finish();
    showError(`palette report: internal error: ${event.message ?? 'the worker failed'}`);
  };
  const request: ReportRequest = {
    type: 'run',
    refs,
    systems,
    ...(source === undefined ? {} : { source }),
    ...(human.length === 0 ? {} : { human }),
    flags: flags(),
  };
  worker.postMessage(request);
}

/** The baseline choices: the systems given, by file name (what `--baseline` takes), the first by default. */
function refreshBaseline(): void {
  const select = $('baseline');
  const kept = select.value;
  const first = doc.createElement('option');
  first.value = '';
  first.textContent = 'the first system';
  const names = filesOf('hyps-files').map((f) => (f as { name: string }).name);
  select.replaceChildren(
    first,
    ...names.map((name) => {
      const option = doc.createElement('option');
      option.value = name;
      option.textContent = name;
      return option;
    }),
  );
  select.value = names.includes(kept) ? kept : '';
}

function setUp(): void {
  const metrics = $('metrics');
  for (const m of METRICS) {
    const box = doc.createElement('input');
    box.setAttribute('type', 'checkbox');
    box.id = `metric-${m.id}`;
    box.checked = m.checked === true;
    const label = doc.createElement('label');
    label.setAttribute('for', box.id);
    label.textContent = m.label;
    const span = doc.createElement('span');
    span.append(box, label);
    metrics.append(span);
  }
  const tok = $('tokenize');
  for (const t of TOKENIZERS) {
    const option = doc.createElement('option');
    option.value = t;
    option.textContent = t === '13a' ? '13a (default)' : t;
    tok.append(option);
  }
  for (const [zone, input] of [
    ['refs-drop', 'refs-files'],
    ['hyps-drop', 'hyps-files'],
    ['source-drop', 'source-file'],
    ['human-drop', 'human-files'],
  ]) {
    const el = $(zone);
    el.addEventListener('dragover', (e) => {
      e.preventDefault();
      el.classList.add('over');
    });
    el.addEventListener('dragleave', () => el.classList.remove('over'));
    el.addEventListener('drop', (e) => {
      e.preventDefault();
      el.classList.remove('over');
      const files = Array.from(e.dataTransfer?.files ?? []);
      if (files.length === 0) return;
      $(input).value = '';
      dropped.set(input, files);
      refreshBaseline();
      $('status').textContent = `${files.length} file${files.length === 1 ? '' : 's'} dropped: ${files.map((f) => (f as { name: string }).name).join(', ')}`;
    });
    $(input).addEventListener('change', () => {
      dropped.delete(input);
      refreshBaseline();
    });
  }
  $('form').addEventListener('submit', (e) => {
    e.preventDefault();
    run();
  });
  $('error').setAttribute('tabindex', '-1');
  doc.getElementById('form')?.setAttribute('data-ready', 'yes');
}

setUp();
