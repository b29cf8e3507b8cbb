/** Every file under a folder, by its path relative to it (none when the folder does not exist). */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export function filesUnder(dir: string, prefix = ''): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? filesUnder(join(dir, entry.name), `${prefix}${entry.name}/`) : [`${prefix}${entry.name}`]));
}
