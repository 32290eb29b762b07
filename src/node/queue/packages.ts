/**
 * BullMQ and ioredis, loaded with `require`. Both are CommonJS packages; an ES module that imports one makes Node
 * parse the package's modules, re-exports followed, to find the names they export (cjs-module-lexer): 120 ms of CPU
 * here, as much again as loading them, in every queue run's submitter (which shares the machine with its workers)
 * and every worker. `require` hands over the same `module.exports` without that pass.
 */
import { createRequire } from 'node:module';

const loadPackage = createRequire(import.meta.url);

export const bullmq = loadPackage('bullmq') as typeof import('bullmq');
export const ioredis = loadPackage('ioredis') as typeof import('ioredis');
