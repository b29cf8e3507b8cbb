/**
 * The profile pictures users pick from (GET /api/v1/files/profile_pictures/...): our own SVGs, shipped in
 * src/assets/profile-pictures/<folder>/<name>.svg. Read once, on first use; only a name found there is served, so
 * a path parameter can never reach another file.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ASSETS = join('src', 'assets', 'profile-pictures');

export class ProfilePictures {
  private pictures?: Map<string, Buffer>;

  /** `<folder>/<name>` of every picture, in order. */
  list(): string[] {
    return [...this.load().keys()];
  }

  get(folder: string, name: string): Buffer | undefined {
    return this.load().get(`${folder}/${name}`);
  }

  private load(): Map<string, Buffer> {
    if (this.pictures) return this.pictures;
    const root = findAssets(dirname(fileURLToPath(import.meta.url)));
    const pictures = new Map<string, Buffer>();
    for (const folder of readdirSync(root, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort()) {
      for (const name of readdirSync(join(root, folder)).filter((file) => file.endsWith('.svg')).sort()) {
        pictures.set(`${folder}/${name}`, readFileSync(join(root, folder, name)));
      }
    }
    return (this.pictures = pictures);
  }
}

/**
 * The assets folder, found by walking up from this module: tsc does not copy SVGs, so from src/ (tests) and from
 * dist/src/ (a build) alike the pictures are read from the project's src/assets.
 */
function findAssets(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, ASSETS);
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) throw new Error(`${ASSETS} not found above ${from}`);
  }
}
