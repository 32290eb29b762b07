/**
 * Run before every test file (vitest `setupFiles`): tests are Node programs that import modules of src/ directly,
 * not through an entry point, so they install the Node adapter as the package main and the CLI do (the kernels
 * read from build/, paraphrase table files, compromise). What the core does without it is tested in
 * test/core-bundle.test.ts, on a bundle of the core entry and in a child process.
 */
import '../../src/node/install.js';
