/**
 * Flow files as users move them around: ZIP archives of flow JSON (downloads) and uploaded files that hold
 * one flow, `{"flows": [...]}`, a project file, or a ZIP of flow JSON files (what our downloads produce).
 */
import { strToU8, unzipSync, zipSync } from 'fflate';
import { BadRequestError } from '../errors/index.js';
import { MAX_JSON_DEPTH, nestsDeeperThan, parseUntrustedJson } from '../../protocol/json-guard.js';

export interface ArchiveEntry {
  name: string;
  json: unknown;
}

/** One `<name>.json` entry per item; names are made flat and unique so no entry is lost or lands in a directory. */
export function zipJson(entries: ArchiveEntry[]): Uint8Array {
  const files: Record<string, Uint8Array> = {};
  for (const entry of entries) {
    const base = entry.name.replace(/[/\\\x00-\x1f]/g, '_') || 'flow';
    let fileName = `${base}.json`;
    for (let n = 1; fileName in files; n++) fileName = `${base} (${n}).json`;
    files[fileName] = strToU8(JSON.stringify(entry.json, null, 2));
  }
  return zipSync(files);
}

export function isZip(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
}

/** The JSON documents inside a ZIP (`.json` entries, macOS resource forks skipped), in archive order. */
export function unzipJson(bytes: Uint8Array): unknown[] {
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(bytes, { filter: (file) => file.name.toLowerCase().endsWith('.json') && !file.name.startsWith('__MACOSX/') });
  } catch (error) {
    throw new BadRequestError(`Invalid ZIP file: ${(error as Error).message}`);
  }
  return Object.entries(entries).map(([name, data]) => parseJson(data, name));
}

export function parseJson(bytes: Uint8Array, what = 'file'): unknown {
  if (nestsDeeperThan(bytes, MAX_JSON_DEPTH)) throw new BadRequestError(`Invalid JSON ${what}: it nests deeper than ${MAX_JSON_DEPTH} levels`);
  try {
    return parseUntrustedJson(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  } catch (error) {
    throw new BadRequestError(`Invalid JSON ${what}: ${(error as Error).message}`);
  }
}

/** `POST /flows/upload`: one flow or `{"flows": [...]}` as JSON, or a ZIP of flow files. */
export function flowsInUpload(bytes: Uint8Array): unknown[] {
  if (isZip(bytes)) return unzipJson(bytes);
  const json = parseJson(bytes);
  if (typeof json === 'object' && json !== null && !Array.isArray(json) && 'flows' in json) {
    const { flows } = json as { flows: unknown };
    if (!Array.isArray(flows)) throw new BadRequestError('"flows" must be a list of flows');
    return flows;
  }
  return [json];
}

/** `YYYYmmdd_HHMMSS` in server local time, the prefix of Langflow's archive names. */
export function archiveTimestamp(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  const date = `${now.getFullYear()}${pad(now.getMonth() + 1)}${pad(now.getDate())}`;
  return `${date}_${pad(now.getHours())}${pad(now.getMinutes())}${pad(now.getSeconds())}`;
}
