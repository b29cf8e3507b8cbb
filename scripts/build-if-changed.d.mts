/** Types of build-if-changed.mjs, for the tests that bring dist/ up to date before spawning the CLI. */
export function buildIfChanged(root: string, say?: (line: string) => void): Promise<boolean>;
