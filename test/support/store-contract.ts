/**
 * The storage port's contract, written once against the port (src/store/port.ts) and run against every
 * implementation (test/store-contract.test.ts): what callers rely on, whatever stores the data. It never looks
 * beneath the port, so a PostgreSQL implementation is checked by the same tests as the LMDB one.
 */
import type { Test } from 'tap';
import { filesContract } from './store-contract/files.js';
import { flowsContract } from './store-contract/flows.js';
import { jobsContract } from './store-contract/jobs.js';
import { lifecycleContract } from './store-contract/lifecycle.js';
import { messagesContract } from './store-contract/messages.js';
import type { OpenStore } from './store-contract/opened.js';
import { projectsContract, variablesContract } from './store-contract/projects-variables.js';
import { usersContract } from './store-contract/users.js';
import { versionsContract } from './store-contract/versions-settings.js';
import { vertexBuildsContract } from './store-contract/vertex-builds.js';

export type { OpenedStore, OpenStore } from './store-contract/opened.js';

/** Runs the whole contract as subtests of `t` named after the implementation; `open` gives fresh, empty stores. */
export function storeContract(t: Test, name: string, open: OpenStore): void {
  void t.test(`store contract: ${name}`, async (t) => {
    for (const part of [usersContract, flowsContract, projectsContract, variablesContract, messagesContract, jobsContract, versionsContract, filesContract, vertexBuildsContract, lifecycleContract]) {
      part(t, open);
    }
  });
}
