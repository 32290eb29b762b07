/**
 * The setup of an early pool in shared memory (src/pool/setup-mailbox.ts): what a worker reads back equals what the
 * main thread wrote, shared buffers (copied into buffers of the reader's own) and values JSON would lose included;
 * a waiting reader wakes when it is written or sent to the channel.
 */
import { describe, expect, it } from 'vitest';
import { createSetupMailbox, ON_CHANNEL, readSetup, setupOnChannel, waitForSetup, writeSetup, WRITTEN } from '../src/pool/setup-mailbox.js';

describe('setup mailbox', () => {
  it('reads back what was written, shared buffers included', async () => {
    const bytes = new SharedArrayBuffer(5);
    new Uint8Array(bytes).set([1, 2, 3, 250, 0]);
    const offsets = new SharedArrayBuffer(8);
    new Int32Array(offsets).set([0, 5]);
    const setup = {
      refs: { nRefs: 1, segments: 1, bytes, offsets },
      settings: { path: 'x', nan: NaN, inf: -Infinity, negZero: -0, none: undefined, list: [1, 'a', null] },
      spec: { ids: ['bleu', 'wer'], typed: new Float64Array([0.5, -1]) },
    };
    const mailbox = createSetupMailbox();
    const waiting = waitForSetup(mailbox);
    expect(writeSetup(mailbox, setup)).toBe(true);
    expect(await waiting).toBe(WRITTEN);
    const read = readSetup(mailbox) as typeof setup;
    expect(read.refs.bytes).toBeInstanceOf(SharedArrayBuffer);
    expect(read.refs.bytes).not.toBe(bytes);
    expect([...new Uint8Array(read.refs.bytes)]).toEqual([1, 2, 3, 250, 0]);
    expect([...new Int32Array(read.refs.offsets)]).toEqual([0, 5]);
    expect(Object.is(read.settings.negZero, -0)).toBe(true);
    expect('none' in read.settings).toBe(true);
    expect(read).toEqual(setup);
  });

  it('a setup that cannot be serialized is not written; the channel is said instead', async () => {
    const mailbox = createSetupMailbox();
    expect(writeSetup(mailbox, { f: () => 0 })).toBe(false);
    const waiting = waitForSetup(mailbox);
    setupOnChannel(mailbox);
    expect(await waiting).toBe(ON_CHANNEL);
  });
});
