/**
 * One allocation of the budget a phase of work may hold, handed out as typed arrays: each phase
 * starts again from the beginning (reset), so a phase's arrays reuse the bytes of the last one's
 * instead of waiting on the garbage collector, and the total is bounded by construction.
 */

export class Arena {
  private readonly buffer: ArrayBuffer;
  private used = 0;

  constructor(readonly bytes: number) {
    this.buffer = new ArrayBuffer(bytes);
  }

  /** Starts a phase: every array handed out before is given up. */
  reset(): void {
    this.used = 0;
  }

  /** Bytes not yet handed out in this phase. */
  get free(): number {
    return this.bytes - this.used;
  }

  u32(count: number): Uint32Array {
    return new Uint32Array(this.buffer, this.take(count * 4), count);
  }

  u8(count: number): Uint8Array {
    return new Uint8Array(this.buffer, this.take(count), count);
  }

  i8(count: number): Int8Array {
    return new Int8Array(this.buffer, this.take(count), count);
  }

  /** count bytes, 8-aligned; throws where the arena has not that many left (a sizing mistake). */
  private take(count: number): number {
    const at = this.used;
    if (at + count > this.bytes) throw new Error(`arena: ${count} bytes asked for, ${this.bytes - at} left`);
    this.used = at + Math.ceil(count / 8) * 8;
    return at;
  }
}
