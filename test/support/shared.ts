/** Where ../shared is: beside the repository, in development and in CI alike. */
import { fileURLToPath } from 'node:url';

export const SHARED_DIR = fileURLToPath(new URL('../../../shared/', import.meta.url));
export const STARTERS_DIR = process.env.LANGFLOW_STARTERS_DIR ?? `${SHARED_DIR}langflow-starters`;
