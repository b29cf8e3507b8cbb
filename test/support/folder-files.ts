/**
 * A FileAccess over one folder for component tests: a relative path under it, an absolute one as given. What a
 * service lets a caller read is tested apart (test/caller-files.test.ts); the component tests are about reading.
 */
import { isAbsolute, join } from 'node:path';
import type { FileAccess } from '../../src/components/contract.js';

export const folderFiles = (dir: string): FileAccess => ({ open: async (path) => (isAbsolute(path) ? path : join(dir, path)) });
