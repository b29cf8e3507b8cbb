/** The sandbox worker: runs one task at a time for the pool in guarded-worker.ts; see sandbox.ts for the tasks. */
import { parentPort } from 'node:worker_threads';
import { jqEngine } from './jq-engine.js';
import { findAllMatches, replaceAllMatches } from './regex-exec.js';
import type { SandboxTask } from './sandbox.js';

async function execute(task: SandboxTask): Promise<{ value: unknown; transfer: ArrayBuffer[] }> {
  switch (task.kind) {
    case 'replace':
      return { value: replaceAllMatches(task.regex, task.text, task.parts), transfer: [] };
    case 'findall':
      return { value: findAllMatches(task.regex, task.text, task.max), transfer: [] };
    case 'jq': {
      const outcome = (await jqEngine()).run(task.input, task.query);
      return { value: outcome, transfer: [outcome.stdout.buffer as ArrayBuffer] };
    }
    default:
      throw new Error(`unknown task kind ${JSON.stringify((task as { kind?: unknown }).kind)}`);
  }
}

parentPort?.on('message', async ({ id, task }: { id: number; task: SandboxTask }) => {
  try {
    const { value, transfer } = await execute(task);
    parentPort!.postMessage({ id, ok: true, value }, transfer);
  } catch (error) {
    parentPort!.postMessage({ id, ok: false, error: error instanceof Error ? error.message : String(error) });
  }
});

// Loaded: the pool starts a task's deadline from here.
parentPort?.postMessage({ ready: true });
