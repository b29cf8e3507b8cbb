/**
 * Builds a knowledge base's HNSW index off the event loop (usearch's add is a synchronous native call: seconds to
 * minutes for a large knowledge base), from its segment files, and saves it whole under its name.
 */
import { readFile, rename } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { parentPort } from 'node:worker_threads';
import { hnswIndex, type HnswBuildTask } from './hnsw-settings.js';

async function build({ segmentPaths, dims, out }: HnswBuildTask): Promise<number> {
  const index = hnswIndex(dims);
  let next = 0;
  for (const path of segmentPaths) {
    const bytes = await readFile(path);
    const vectors = new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
    const count = vectors.length / dims;
    const keys = new BigUint64Array(count);
    for (let i = 0; i < count; i++) keys[i] = BigInt(next + i);
    // One thread: the service shares its cores with the requests it answers.
    if (count > 0) index.add(keys, vectors, 1);
    next += count;
  }
  const temporary = `${out}.part-${randomUUID()}`;
  index.save(temporary);
  await rename(temporary, out);
  return next;
}

parentPort?.on('message', async ({ id, task }: { id: number; task: HnswBuildTask }) => {
  try {
    parentPort!.postMessage({ id, ok: true, value: await build(task) });
  } catch (error) {
    parentPort!.postMessage({ id, ok: false, error: error instanceof Error ? error.message : String(error) });
  }
});
parentPort?.postMessage({ ready: true });
