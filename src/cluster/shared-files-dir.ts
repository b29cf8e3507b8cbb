/**
 * Instances sharing runs must share the directory of file bytes (`FLOWSVC_FILES_DIR`): a file uploaded through one
 * is read by a flow running on another. Checked at start-up: the first instance leaves a marker in the directory
 * holding a token stored in the database, and records in the database that it did; every later one must find that
 * same token there. An instance given a directory of its own (a local path, a mount that failed: no marker, or
 * another cluster's) refuses to start, instead of losing files later.
 */
import { randomUUID } from 'node:crypto';
import { link, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SettingsRepo } from '../store/port.js';

const MARKER = '.flowsvc-cluster';
/** The database's record that the marker was placed: from then on, a directory without it is not the shared one. */
const MARKED = 'cluster.files_dir_marked';

export async function checkSharedFilesDir(dir: string, settings: SettingsRepo): Promise<void> {
  const token = await settings.putIfAbsent('cluster.files_dir_token', randomUUID());
  await mkdir(dir, { recursive: true });
  const marker = join(dir, MARKER);
  const found = await readFile(marker, 'utf8').catch(() => undefined);
  if (found === undefined && (await settings.get(MARKED)) === undefined) {
    await placeMarker(dir, marker, token);
    await settings.put(MARKED, 'yes');
  }
  const placed = (await readFile(marker, 'utf8').catch(() => '')).trim();
  if (placed !== token) {
    throw new Error(
      `FLOWSVC_FILES_DIR (${dir}) is not the directory the other instances on this database use: its ${MARKER} is ${placed ? 'another cluster\'s' : 'missing'}. Mount the shared directory there.`,
    );
  }
}

/** Places the marker unless another instance starting at the same moment did. */
async function placeMarker(dir: string, marker: string, token: string): Promise<void> {
  // Written whole under a name of its own, then linked: instances starting together never read a half-written one.
  const draft = join(dir, `${MARKER}.${randomUUID()}`);
  await writeFile(draft, token);
  try {
    await link(draft, marker);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    await rm(draft, { force: true });
  }
}
