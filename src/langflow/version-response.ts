/** GET /api/v1/version as Langflow answers it (utils/version.py), with our package's name and version. */
import type { VersionResponse } from '../../protocol/meta.schema.js';

export const PACKAGE_DISPLAY_NAME = 'flowsvc';

export function versionResponse(version: string): VersionResponse {
  return { version, main_version: mainVersion(version), package: PACKAGE_DISPLAY_NAME };
}

/** The release a pre-release leads to: `1.2.0-rc.1` and `1.2.0+build.5` give `1.2.0`. */
export function mainVersion(version: string): string {
  return version.split(/[-+]/, 1)[0]!;
}
