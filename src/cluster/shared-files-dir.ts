/**
 * Instances sharing runs must share the directory of file bytes (`FLOWSVC_FILES_DIR`): a file uploaded through one
 * is read by a flow running on another. Checked at start-up: the first instance leaves a marker in the directory
 * holding a token it stored in the database, and every later one must find that same token there. An instance
 * given a directory of its own (a local path, a mount that failed) refuses to start, instead of losing files later.
 */
import { randomUUID } from 'node:crypto';
import { link, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SettingsRepo } from '../store/port.js';

const MARKER = '.flowsvc-cluster';

export async function checkSharedFilesDir(dir: string, settings: SettingsRepo): Promise<void> {
  const token = await settings.putIfAbsent('cluster.files_dir_token', randomUUID());
  await mkdir(dir, { recursive: true });
  const marker = join(dir, MARKER);
  // Written whole under a name of its own, then linked: instances starting together never read a half-written one.
  const draft = join(dir, `${MARKER}.${randomUUID()}`);
  await writeFile(draft, token);
  try {
    await link(draft, marker);
    return;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    await rm(draft, { force: true });
  }
  const found = (await readFile(marker, 'utf8')).trim();
  if (found !== token) {
    throw new Error(
      `FLOWSVC_FILES_DIR (${dir}) is not the directory the other instances on this database use: its ${MARKER} does not match. Mount the shared directory there.`,
    );
  }
}
