/**
 * Where a knowledge base's vectors live: one directory per knowledge base under `<files dir>/knowledge/<user>/<kb>`
 * (both ids are ours, never a name a caller chose), holding one file per committed ingestion (its segment: the
 * vectors as raw little-endian float32, unit length, in chunk order) and the HNSW index files built from them. A
 * file is written under a temporary name, flushed, then renamed: it is whole under its name or absent. In cluster
 * mode the files dir is shared, so every instance reads the same files.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';

const SAFE_SEGMENT = /^[A-Za-z0-9_-]{1,100}$/;

export class SegmentFiles {
  constructor(private readonly filesDir: string) {}

  /** The directory of one knowledge base. */
  dirOf(userId: string, kbId: string): string {
    return join(this.userDir(userId), safeId(kbId));
  }

  /** The directory holding all of one user's knowledge bases. */
  userDir(userId: string): string {
    return join(this.filesDir, 'knowledge', safeId(userId));
  }

  segmentPath(dir: string, jobId: string): string {
    return join(dir, `${safeId(jobId)}.f32`);
  }

  /** Writes `vectors` (already unit length) as one segment; resolves once it is on disk under its name. */
  async write(dir: string, jobId: string, vectors: Float32Array): Promise<number> {
    await mkdir(dir, { recursive: true });
    const final = this.segmentPath(dir, jobId);
    await writeWhole(final, new Uint8Array(vectors.buffer, vectors.byteOffset, vectors.byteLength));
    return vectors.byteLength;
  }

  async read(dir: string, jobId: string): Promise<Float32Array> {
    const bytes = await readFile(this.segmentPath(dir, jobId));
    // A copy into an aligned buffer: a Buffer from the pool may start at an offset no Float32Array can view.
    const vectors = new Float32Array(bytes.byteLength / 4);
    new Uint8Array(vectors.buffer).set(bytes);
    return vectors;
  }

  /** One vector of a segment, read from the file at its place (include_embeddings). */
  async readOne(dir: string, jobId: string, index: number, dims: number): Promise<number[]> {
    const handle = await open(this.segmentPath(dir, jobId), 'r');
    try {
      const buffer = Buffer.alloc(dims * 4);
      await handle.read(buffer, 0, buffer.byteLength, index * dims * 4);
      return Array.from(new Float32Array(buffer.buffer, buffer.byteOffset, dims));
    } finally {
      await handle.close();
    }
  }

  remove(dir: string, jobId: string): Promise<void> {
    return rm(this.segmentPath(dir, jobId), { force: true });
  }

  removeAll(dir: string): Promise<void> {
    return rm(dir, { recursive: true, force: true });
  }
}

function safeId(part: string): string {
  if (!SAFE_SEGMENT.test(part)) throw new Error(`not an id usable in a path: ${JSON.stringify(part)}`);
  return part;
}

/** Writes bytes under a temporary name, flushes them, and renames the file into place. */
export async function writeWhole(path: string, bytes: Uint8Array): Promise<void> {
  const temporary = `${path}.part-${randomUUID()}`;
  const handle = await open(temporary, 'w');
  try {
    await handle.write(bytes);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temporary, path);
}
