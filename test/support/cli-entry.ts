/** Runs the CLI from TypeScript source, so tests can spawn it as a real process without a build. */
import { main } from '../../src/main/cli.js';

await main(process.argv.slice(2));
