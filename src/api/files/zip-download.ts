/**
 * Several files as one ZIP, written as it is read: each file's bytes go into the archive (stored, not
 * compressed: documents are read once and the CPU is better spent elsewhere) and out to the socket, waiting when
 * the socket is full, so a batch of large files never sits in memory.
 */
import type { Readable } from 'node:stream';
import { Zip, ZipPassThrough } from 'fflate';
import type { StreamSink } from '../../edge/reply.js';
import { uniqueFileName } from '../../services/files/file-names.js';

export interface ZipEntry {
  /** The name in the archive; a repeated one is numbered. */
  name: string;
  open(): Promise<Readable | undefined>;
}

export async function zipToSink(entries: readonly ZipEntry[], sink: StreamSink): Promise<void> {
  let full = false;
  let failure: Error | null = null;
  const zip = new Zip((error, chunk) => {
    if (error) failure = error;
    else if (!sink.write(chunk)) full = true;
  });
  const names: string[] = [];
  for (const entry of entries) {
    const bytes = await entry.open();
    if (!bytes) continue;
    const name = uniqueFileName(entry.name, names);
    names.push(name);
    const file = new ZipPassThrough(name);
    zip.add(file);
    try {
      for await (const chunk of bytes) {
        if (sink.closed) return;
        file.push(chunk as Uint8Array);
        if (failure) throw failure;
        if (full) {
          full = false;
          await sink.drained();
        }
      }
    } finally {
      bytes.destroy();
    }
    file.push(new Uint8Array(0), true);
  }
  zip.end();
}

