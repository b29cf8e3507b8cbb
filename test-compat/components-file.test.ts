/** The checks of test/components-file.test.ts that run parts of the real Langflow exports in ../shared/langflow-starters. */
import { LangflowClient } from '@datastax/langflow-client';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { fileComponent } from '../src/components/data/file.js';
import { createData } from '../src/values/data.js';
import { createMessage } from '../src/values/message.js';
import { folderFiles } from '../test/support/folder-files.js';
import { runComponent } from '../test/support/component-run.js';
import { writeFixtures } from '../test/support/file-fixtures.js';
import { createFlow } from '../test/support/flow-helpers.js';
import { edge, node } from '../test/support/langflow-json.js';
import { startTestServer } from '../test/support/server.js';
import { starterSubflow } from '../test/support/starter-nodes.js';

const dir = mkdtempSync(join(tmpdir(), 'flowsvc-files-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));
const names = writeFixtures(dir);
const files = folderFiles(dir);
const load = (params: Record<string, unknown>, requested?: string[], edges?: Record<string, unknown>) => runComponent(fileComponent, params, { files, requested, edges });

t.test('the Document Q&A File node through /api/v1/run reads the caller\'s files (under their user id)', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const owner = server.services.superuserId;
  mkdirSync(join(server.dataDir, 'files', owner), { recursive: true });
  writeFileSync(join(server.dataDir, 'files', owner, 'faq.md'), 'Opening hours: 9 to 5.');
  const body = starterSubflow('Document Q&A', ['ChatInput-e74mn', 'Prompt-odlqe', 'File-b2gOG'], {
    nodes: [node('ChatOutput-out01', 'ChatOutput', {}, 'Chat Output')],
    edges: [edge('Prompt-odlqe', 'prompt', 'ChatOutput-out01', 'input_value')],
  });
  body.data.nodes.find((n: { id: string }) => n.id === 'File-b2gOG').data.node.template.path.file_path = [`${owner}/faq.md`];
  const created = await createFlow(server, body);
  const client = new LangflowClient({ baseUrl: server.url, apiKey: server.apiKey });
  t.match((await client.flow(created.id).run('When are you open?')).chatOutputText(), 'Opening hours: 9 to 5.');

  const res = await server.request(`/api/v1/run/${created.id}`, { method: 'POST', json: { input_value: 'x', tweaks: { 'File-b2gOG': { path: `${owner}/gone.md` } } } });
  t.equal(res.status, 500);
  t.match(JSON.stringify(await res.json()), new RegExp(`File-b2gOG.*Error loading file ${owner}/gone\\.md: no such file`));
});
