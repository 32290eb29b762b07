/**
 * A trie of token-id phrases stored flat: every edge (parent node, token id) → child node is one slot of an
 * open-addressing hash table of three parallel Int32Arrays, and each node keeps only its parent, its last token and
 * its depth. A phrase is the node its tokens lead to, so a phrase id costs no string and no array of its own, and
 * matching walks the trie from each start position and stops as soon as no phrase continues — most positions cost
 * one probe.
 */
import { hashFinish } from '../intern.js';

/** fmix32 of the edge key, so that consecutive node ids and token ids spread over the slots. */
function edgeHash(node: number, token: number): number {
  return hashFinish(Math.imul(node, 0x9e3779b1) ^ token);
}

/** A growable trie of non-negative token-id sequences; node 0 is the root (the empty phrase). */
export class PhraseTrie {
  private edgeParent = new Int32Array(256);
  private edgeToken = new Int32Array(256);
  /** `child + 1`; 0 = empty slot. */
  private edgeChild = new Int32Array(256);
  private mask = 255;
  private parents = new Int32Array(64);
  private tokens = new Int32Array(64);
  private depths = new Int32Array(64);
  private nodes = 1;

  constructor() {
    this.parents[0] = -1;
    this.tokens[0] = -1;
  }

  /** Number of nodes, the root included (node ids are `0 .. size - 1`). */
  get size(): number {
    return this.nodes;
  }

  /** The child of `node` by `token`, or -1. */
  child(node: number, token: number): number {
    const { edgeParent, edgeToken, edgeChild, mask } = this;
    for (let slot = edgeHash(node, token) & mask; ; slot = (slot + 1) & mask) {
      const entry = edgeChild[slot];
      if (entry === 0) return -1;
      if (edgeParent[slot] === node && edgeToken[slot] === token) return entry - 1;
    }
  }

  /** The child of `node` by `token`, created when absent. */
  childOrAdd(node: number, token: number): number {
    const found = this.child(node, token);
    if (found >= 0) return found;
    const id = this.nodes++;
    if (id === this.parents.length) {
      this.parents = grow(this.parents);
      this.tokens = grow(this.tokens);
      this.depths = grow(this.depths);
    }
    this.parents[id] = node;
    this.tokens[id] = token;
    this.depths[id] = this.depths[node] + 1;
    // Nodes other than the root are edges: keep the table at most half full.
    if (2 * id > this.edgeChild.length) this.rehash(this.edgeChild.length * 2);
    else this.place(node, token, id);
    return id;
  }

  /** The node of `tokens[start, end)`, created (with its prefixes) when absent. */
  add(tokens: ArrayLike<number>, start: number, end: number): number {
    let node = 0;
    for (let k = start; k < end; k++) node = this.childOrAdd(node, tokens[k]);
    return node;
  }

  /** The node of `tokens[start, end)`, or -1 when it is not in the trie. */
  find(tokens: ArrayLike<number>, start: number, end: number): number {
    let node = 0;
    for (let k = start; k < end && node >= 0; k++) node = this.child(node, tokens[k]);
    return node;
  }

  /** Number of tokens of the phrase of `node`. */
  depth(node: number): number {
    return this.depths[node];
  }

  /** The token ids of the phrase of `node`, first to last. */
  phrase(node: number): Int32Array {
    const out = new Int32Array(this.depths[node]);
    for (let k = out.length - 1; k >= 0; k--) {
      out[k] = this.tokens[node];
      node = this.parents[node];
    }
    return out;
  }

  private place(node: number, token: number, child: number): void {
    const { edgeParent, edgeToken, edgeChild, mask } = this;
    let slot = edgeHash(node, token) & mask;
    while (edgeChild[slot] !== 0) slot = (slot + 1) & mask;
    edgeParent[slot] = node;
    edgeToken[slot] = token;
    edgeChild[slot] = child + 1;
  }

  private rehash(capacity: number): void {
    this.edgeParent = new Int32Array(capacity);
    this.edgeToken = new Int32Array(capacity);
    this.edgeChild = new Int32Array(capacity);
    this.mask = capacity - 1;
    // Every node but the root is the edge from its parent.
    for (let id = 1; id < this.nodes; id++) this.place(this.parents[id], this.tokens[id], id);
  }
}

function grow(a: Int32Array): Int32Array<ArrayBuffer> {
  const out = new Int32Array(a.length * 2);
  out.set(a);
  return out;
}
