/**
 * msgpack written value by value into one growing buffer: for records written straight from what they describe
 * (a run's trace row: src/store/trace-row.ts), with no objects built to be encoded and no copy per record. Whoever
 * writes knows the shape: a map or array header says how many items follow, then the items are written. What it
 * writes msgpackr reads (maps as objects), which is how the stores read these records back.
 */
const UNDEFINED = [0xd4, 0, 0];

export class MsgpackWriter {
  private buffer: Buffer;
  /** Where the next byte goes: everything before it is written. */
  length = 0;
  /** The bytes of a float64, big-endian through the view. */
  private readonly float = new DataView(new ArrayBuffer(8));

  constructor(initialSize = 1 << 16) {
    this.buffer = Buffer.allocUnsafe(initialSize);
  }

  /** What was written since `from` (a view: valid until the next write or `reset`). */
  written(from = 0): Buffer {
    return this.buffer.subarray(from, this.length);
  }

  reset(): void {
    this.length = 0;
  }

  /** Appends to `target` what was written here in [from, to) (no view made of it). */
  copy(from: number, to: number, target: MsgpackWriter): void {
    target.room(to - from);
    this.buffer.copy(target.buffer, target.length, from, to);
    target.length += to - from;
  }

  /** What was written, as a buffer of its own (the writer's is reused). */
  copied(): Buffer {
    return Buffer.from(this.written());
  }

  /** Appends bytes already encoded (another writer's). */
  raw(bytes: Uint8Array): void {
    this.room(bytes.length);
    this.buffer.set(bytes, this.length);
    this.length += bytes.length;
  }

  nil(): void {
    this.byte(0xc0);
  }

  bool(value: boolean): void {
    this.byte(value ? 0xc3 : 0xc2);
  }

  arrayHeader(count: number): void {
    this.header(count, 0x90, 0xdc);
  }

  mapHeader(count: number): void {
    this.header(count, 0x80, 0xde);
  }

  num(value: number): void {
    this.room(9);
    const b = this.buffer;
    let at = this.length;
    if (value >>> 0 === value) {
      if (value < 0x80) b[at++] = value;
      else if (value < 0x100) (b[at++] = 0xcc), (b[at++] = value);
      else if (value < 0x10000) (b[at++] = 0xcd), (b[at++] = value >> 8), (b[at++] = value & 0xff);
      else (b[at++] = 0xce), b.writeUInt32BE(value, at), (at += 4);
    } else if (value >> 0 === value) {
      if (value >= -32) b[at++] = value & 0xff;
      else (b[at++] = 0xd2), b.writeInt32BE(value, at), (at += 4);
    } else {
      this.float.setFloat64(0, value);
      b[at++] = 0xcb;
      for (let n = 0; n < 8; n++) b[at++] = this.float.getUint8(n);
    }
    this.length = at;
  }

  str(value: string): void {
    const count = value.length;
    // At most 3 bytes per UTF-16 unit, and a 5-byte header.
    this.room(5 + count * 3);
    const b = this.buffer;
    if (count < 32) {
      // Short ASCII (ids, names, most field names) byte by byte: cheaper than a native call each.
      let at = this.length + 1;
      let n = 0;
      for (; n < count; n++) {
        const code = value.charCodeAt(n);
        if (code >= 0x80) break;
        b[at++] = code;
      }
      if (n === count) {
        b[this.length] = 0xa0 | count;
        this.length = at;
        return;
      }
    }
    if (count * 3 < 0x100) {
      const size = b.write(value, this.length + 2, 'utf8');
      b[this.length] = 0xd9;
      b[this.length + 1] = size;
      this.length += 2 + size;
      return;
    }
    const size = b.write(value, this.length + 5, 'utf8');
    b[this.length] = 0xdb;
    b.writeUInt32BE(size, this.length + 1);
    this.length += 5 + size;
  }

  /** Any plain value (JSON's kinds; undefined as msgpackr writes it), objects and arrays walked whole. */
  value(value: unknown): void {
    switch (typeof value) {
      case 'string':
        return this.str(value);
      case 'number':
        return this.num(value);
      case 'boolean':
        return this.bool(value);
      case 'undefined':
        return this.raw(Buffer.from(UNDEFINED));
      case 'object':
        if (value === null) return this.nil();
        if (Array.isArray(value)) {
          this.arrayHeader(value.length);
          for (const item of value) this.value(item);
          return;
        }
        this.mapHeader(Object.keys(value).length);
        for (const [key, item] of Object.entries(value)) {
          this.str(key);
          this.value(item);
        }
        return;
      default:
        return this.nil();
    }
  }

  private byte(value: number): void {
    this.room(1);
    this.buffer[this.length++] = value;
  }

  private header(count: number, fix: number, sized: number): void {
    this.room(5);
    const b = this.buffer;
    if (count < 16) b[this.length++] = fix | count;
    else if (count < 0x10000) (b[this.length] = sized), b.writeUInt16BE(count, this.length + 1), (this.length += 3);
    else (b[this.length] = sized + 1), b.writeUInt32BE(count, this.length + 1), (this.length += 5);
  }

  private room(bytes: number): void {
    if (this.length + bytes <= this.buffer.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.length + bytes));
    this.buffer.copy(grown, 0, 0, this.length);
    this.buffer = grown;
  }
}
