/** Tavily's `/search` answering a fixed search at once, as a child process (so its CPU is not the bench's). */
import { startTavily } from './agent-tool-servers.js';

const server = await startTavily();
console.log(`listening on ${server.url}`);
