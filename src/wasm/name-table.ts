/**
 * Names (strings, as UTF-16 units) to dense ids in WebAssembly (`assembly/name-table.ts`), an instance of its own per
 * table: a batch of names is interned in one call, whether its units come from another kernel's memory (METEOR's
 * words and stems, ./words-13a.ts `WordFacts`) or from strings here. Ids are given in the order names are first seen.
 *
 * The regions (per name its hash and where its units start, the units back to back, the open-addressing table, a
 * call's input) lie one after the other; growing one moves those after it (the table is then filled again).
 */
import { stringOfUnits } from '../text/unicode/lower.js';
import type { KernelExports } from './kernels.js';
import { alignUp, LinearMemory } from './linear-memory.js';
import { instantiateKernels } from './load.js';

interface NameTableExports extends KernelExports {
  nameTableIntern(
    units: number, starts: number, runs: number, out: number, table: number, mask: number, hashes: number,
    nameStarts: number, arena: number, count: number,
  ): number;
  words13aRehash(table: number, mask: number, hashes: number, count: number): void;
}

export class NameTable {
  /** Number of names (ids `0 .. count`). */
  count = 0;
  private readonly kernels: NameTableExports;
  private readonly memory: LinearMemory;
  private readonly base: number;
  private nameRoom = 0;
  private unitRoom = 0;
  private slots = 0;
  private callRoom = 0;
  private hashes = 0;
  private starts = 0;
  private arena = 0;
  private table = 0;
  private call = 0;

  constructor() {
    this.kernels = instantiateKernels() as NameTableExports;
    this.memory = new LinearMemory(this.kernels.memory);
    this.base = alignUp(this.kernels.heapBase(), 16);
    this.place(1024, 8192, 2048, 16384);
  }

  /** Units of the names so far. */
  private get units(): number {
    return this.memory.u32[(this.starts >> 2) + this.count];
  }

  /**
   * Gives the regions the room asked for, moving those that must (the last first); a table of another size is
   * filled again from the names' hashes.
   */
  private place(nameRoom: number, unitRoom: number, slots: number, callRoom: number): void {
    const hashes = this.base;
    const starts = alignUp(hashes + 4 * nameRoom, 16);
    const arena = alignUp(starts + 4 * (nameRoom + 1), 16);
    const table = alignUp(arena + 2 * unitRoom, 16);
    const call = alignUp(table + 8 * slots, 16);
    this.memory.reserve(call + callRoom);
    const u8 = this.memory.u8;
    const first = this.nameRoom === 0;
    const used = first ? 0 : this.units;
    if (!first) {
      if (slots === this.slots) u8.copyWithin(table, this.table, this.table + 8 * this.slots);
      u8.copyWithin(arena, this.arena, this.arena + 2 * used);
      u8.copyWithin(starts, this.starts, this.starts + 4 * (this.count + 1));
    } else this.memory.u32[starts >> 2] = 0;
    this.nameRoom = nameRoom;
    this.unitRoom = unitRoom;
    this.callRoom = callRoom;
    this.hashes = hashes;
    this.starts = starts;
    this.arena = arena;
    this.call = call;
    if (first || slots !== this.slots) {
      this.slots = slots;
      this.table = table;
      this.memory.u8.fill(0, table, table + 8 * slots);
      this.kernels.words13aRehash(table, slots - 1, hashes, this.count);
    } else this.table = table;
  }

  /** Room for `names` more names of `units` units in all, and a call region of `callBytes` bytes. */
  private room(names: number, units: number, callBytes: number): void {
    const needNames = this.count + names;
    const needUnits = this.units + units;
    let slots = this.slots;
    while (2 * needNames > slots) slots *= 2;
    if (needNames <= this.nameRoom && needUnits <= this.unitRoom && slots === this.slots && callBytes <= this.callRoom) return;
    const grown = (have: number, need: number): number => (need <= have ? have : Math.max(need, 2 * have));
    this.place(grown(this.nameRoom, needNames), grown(this.unitRoom, needUnits), slots, grown(this.callRoom, callBytes));
  }

  /**
   * The ids of `runs` names, name `r` the units `units[starts[r] .. starts[r + 1])` (an empty run: -1), into `out`;
   * names not seen before are added.
   */
  internUnits(units: Uint16Array, starts: Uint32Array, runs: number, out: Int32Array): void {
    const total = starts[runs] - starts[0];
    const unitsBytes = alignUp(2 * total, 16);
    const startsBytes = alignUp(4 * (runs + 1), 16);
    this.room(runs, total, unitsBytes + startsBytes + 4 * runs);
    const at = this.call;
    const u32 = this.memory.u32;
    new Uint16Array(this.memory.u8.buffer, at, total).set(units.subarray(starts[0], starts[runs]));
    const base = starts[0];
    for (let r = 0; r <= runs; r++) u32[((at + unitsBytes) >> 2) + r] = starts[r] - base;
    this.run(at, at + unitsBytes, runs, at + unitsBytes + startsBytes, out);
  }

  /** The ids of `strings` (one name each; an empty string: -1) into `out`; names not seen before are added. */
  internStrings(strings: readonly string[], count: number, out: Int32Array): void {
    let total = 0;
    for (let r = 0; r < count; r++) total += strings[r].length;
    const unitsBytes = alignUp(2 * total, 16);
    const startsBytes = alignUp(4 * (count + 1), 16);
    this.room(count, total, unitsBytes + startsBytes + 4 * count);
    const at = this.call;
    const units = new Uint16Array(this.memory.u8.buffer, at, total);
    const u32 = this.memory.u32;
    const startsAt = (at + unitsBytes) >> 2;
    let k = 0;
    u32[startsAt] = 0;
    for (let r = 0; r < count; r++) {
      const s = strings[r];
      for (let i = 0; i < s.length; i++) units[k++] = s.charCodeAt(i);
      u32[startsAt + r + 1] = k;
    }
    this.run(at, at + unitsBytes, count, at + unitsBytes + startsBytes, out);
  }

  private run(units: number, starts: number, runs: number, outAt: number, out: Int32Array): void {
    this.count = this.kernels.nameTableIntern(
      units, starts, runs, outAt, this.table, this.slots - 1, this.hashes, this.starts, this.arena, this.count,
    );
    out.set(this.memory.i32.subarray(outAt >> 2, (outAt >> 2) + runs));
  }

  /** Name `id` as a string. */
  name(id: number): string {
    const u32 = this.memory.u32;
    const from = u32[(this.starts >> 2) + id];
    const to = u32[(this.starts >> 2) + id + 1];
    return stringOfUnits(new Uint16Array(this.memory.u8.buffer, this.arena + 2 * from, to - from), to - from);
  }
}
