/**
 * Flow validation in levels: `flowsvc validate` as a real process (offline, text and JSON, --level, exit codes), the
 * same checks behind POST /api/v1/validate/flow (the caller's variables), and each level's findings on our flows.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { validateFlow, type ValidationSources } from '../src/langflow/flow-validation.js';
import { variableResolver } from '../src/engine/variables.js';
import { runCli } from './support/process.js';
import { edge, echoFlow, flow, node } from './support/langflow-json.js';
import { startTestServer } from './support/server.js';

for (const name of ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'GOOGLE_API_KEY', 'OLLAMA_BASE_URL']) delete process.env[name];

const sources = (env: Record<string, string> = {}): ValidationSources => {
  const resolver = variableResolver({ env });
  return { variable: (name) => resolver.resolve(name) };
};

/** Chat Input -> Language Model (model "" as the current starters ship it) -> Chat Output. */
const modelFlow = () =>
  flow(
    'Model',
    [node('ChatInput-in001', 'ChatInput', {}, 'Chat Input'), node('LanguageModelComponent-lm1', 'LanguageModelComponent', { model: { value: '', required: true, model_type: 'language', type: 'model' } }, 'Language Model'), node('ChatOutput-out01', 'ChatOutput', {}, 'Chat Output')],
    [edge('ChatInput-in001', 'message', 'LanguageModelComponent-lm1', 'input_value'), edge('LanguageModelComponent-lm1', 'text_output', 'ChatOutput-out01', 'input_value')],
  );

t.test('level 1: what is not a flow, edges to missing nodes, duplicate ids; nothing deeper runs', async (t) => {
  const notFlow = await validateFlow([1, 2], 4, sources());
  t.same(notFlow.levels.map((l) => [l.level, l.checked, l.ok]), [[1, true, false], [2, false, false], [3, false, false], [4, false, false]]);
  const nodes = [node('A-1', 'ChatInput'), node('A-1', 'ChatOutput'), node('Lonely-1', 'ChatOutput')];
  const broken = flow('Broken', nodes, [edge('A-1', 'message', 'Gone-1', 'input_value'), { id: 'no-handles', source: 'A-1', target: 'A-1' }]);
  const report = await validateFlow(broken, 1, sources());
  t.notOk(report.ok);
  const messages = report.issues.map((i) => i.message).join('\n');
  for (const expected of [/appears twice/, /connects missing node "Gone-1"/, /has invalid handles/, /Node Lonely-1 is connected to nothing/]) t.match(messages, expected);
  t.equal(report.issues.find((i) => /connected to nothing/.test(i.message))?.severity, 'warning', 'an unconnected node is a warning');
});

t.test('level 2 lists every node that cannot run, level 3 bad edges, level 4 what the caller must supply', async (t) => {
  const mixed = flow(
    'Mixed',
    [node('ChatInput-in001', 'ChatInput'), node('OpenDsStarAgent-t1', 'OpenDsStarAgent'), node('Mystery-1', 'Mystery'), node('Parser-p1', 'ParserComponent', {}, 'Parser'), node('ChatOutput-out01', 'ChatOutput')],
    [edge('ChatInput-in001', 'message', 'Parser-p1', 'input_data'), edge('ChatInput-in001', 'nope', 'ChatOutput-out01', 'input_value'), edge('ChatInput-in001', 'message', 'OpenDsStarAgent-t1', 'input_value')],
  );
  const two = await validateFlow(mixed, 2, sources());
  t.same(two.issues.filter((i) => i.level === 2).map((i) => i.node_id), ['OpenDsStarAgent-t1', 'Mystery-1']);
  t.match(two.issues.find((i) => i.level === 2)?.message, /^OpenDsStarAgent: runs Python code that a model writes/);
  t.notOk(two.levels[2].checked, 'level 3 is not asked for');
  const four = await validateFlow(mixed, 4, sources());
  const three = four.issues.filter((i) => i.level === 3).map((i) => i.message);
  t.match(three, [/output "message" of ChatInput-in001 gives Message, but field "input_data" of Parser-p1 takes DataFrame, Data/, /ChatInput-in001 has no output "nope"/]);
  t.same(four.levels.map((l) => l.ok), [true, false, false, true]);

  const model = await validateFlow(modelFlow(), 4, sources());
  t.notOk(model.ok);
  t.match(model.issues[0], { level: 4, node_id: 'LanguageModelComponent-lm1', node_name: 'Language Model', message: /"Language Model" \(model\) field is empty and there is no default language model.*FLOWSVC_DEFAULT_MODEL/ });
  t.ok((await validateFlow(modelFlow(), 4, sources({ OPENAI_API_KEY: 'sk' }))).ok, 'a provider variable makes a default');
  t.ok((await validateFlow(modelFlow(), 3, sources())).ok, 'levels 1-3 pass without it');

  const keyed = flow('Keyed', [node('ChatInput-in001', 'ChatInput'), node('LanguageModelComponent-lm1', 'LanguageModelComponent', { model_name: 'gpt-4o-mini', api_key: { value: 'MY_KEY', load_from_db: true } })], [edge('ChatInput-in001', 'message', 'LanguageModelComponent-lm1', 'input_value')]);
  t.match((await validateFlow(keyed, 4, sources())).issues, [{ level: 4, message: /names the variable MY_KEY, which is not set/ }]);
  t.ok((await validateFlow(keyed, 4, sources({ MY_KEY: 'x' }))).ok);
});

t.test('flowsvc validate: files and folders, text and JSON, --level, exit codes', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'flowsvc-validate-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'echo.json'), JSON.stringify(echoFlow()));
  writeFileSync(join(dir, 'model.json'), JSON.stringify(modelFlow()));
  writeFileSync(join(dir, 'broken.json'), '{"name": ');
  const env = { ...process.env, OPENAI_API_KEY: '' };

  const good = await runCli(['validate', join(dir, 'echo.json')], env);
  t.equal(good.code, 0);
  t.equal(good.stdout, `✓ ${join(dir, 'echo.json')}\n`);

  const all = await runCli(['validate', dir], env);
  t.equal(all.code, 1, 'a level failed for one file');
  t.match(all.stdout, /✗ .*broken\.json\n {2}\[L1 ERROR\] Cannot read the flow: /);
  t.match(all.stdout, /✗ .*model\.json\n {2}\[L4 ERROR\] \[Language Model\] The "Language Model" \(model\) field is empty/);
  t.match(all.stdout, /Validated 3 flows: 1 valid, 2 invalid\.\n$/);

  const json = await runCli(['validate', join(dir, 'model.json'), '--format', 'json', '--level', '3'], env);
  t.equal(json.code, 0, 'levels 1-3 pass');
  const [report] = JSON.parse(json.stdout);
  t.match(report, { path: join(dir, 'model.json'), ok: true, level: 3, issues: [] });

  const withKey = await runCli(['validate', join(dir, 'model.json'), '-f', 'json'], { ...env, FLOWSVC_DEFAULT_MODEL: 'openai/gpt-4o' });
  t.equal(withKey.code, 1, 'the setting alone names a provider without its key');
  t.match(JSON.parse(withKey.stdout)[0].issues[0].message, /takes FLOWSVC_DEFAULT_MODEL, OpenAI gpt-4o, but OPENAI_API_KEY is not set/);

  for (const [args, message] of [
    [['validate'], /give a flow file/],
    [['validate', join(dir, 'missing.json')], /no such file or folder/],
    [['validate', dir, '--level', '5'], /--level must be 1 to 4/],
    [['validate', dir, '--format', 'yaml'], /--format must be text or json/],
  ] as const) {
    const refused = await runCli([...args], env);
    t.equal(refused.code, 2, args.join(' '));
    t.match(refused.stderr, message);
  }
});

t.test('POST /api/v1/validate/flow: the same checks, with the caller\'s variables', async (t) => {
  const server = await startTestServer({ FALLBACK_TO_ENV_VAR: 'false' });
  t.teardown(() => server.close());
  const check = async (body: unknown, query = '', headers: Record<string, string> = {}) => {
    const res = await server.request(`/api/v1/validate/flow${query}`, { method: 'POST', json: body, headers });
    return { status: res.status, body: await res.json() };
  };
  const before = await check(modelFlow());
  t.equal(before.status, 200);
  t.match(before.body, { ok: false, level: 4, issues: [{ level: 4, node_id: 'LanguageModelComponent-lm1' }] });
  t.match((await check(modelFlow(), '', { 'X-FLOWSVC-GLOBAL-VAR-OPENAI-API-KEY': 'sk-h' })).body, { ok: true }, 'a request header enables a provider');
  await server.request('/api/v1/variables/', { method: 'POST', json: { name: 'OPENAI_API_KEY', value: 'sk', default_fields: [] } });
  t.match((await check(modelFlow().data)).body, { ok: true, issues: [] }, 'a stored variable too; a flow\'s data alone is read');
  t.match((await check({ nodes: 'no' }, '?level=1')).body, { ok: false, levels: [{ level: 1, ok: false }] });
  t.equal((await check(modelFlow(), '?level=9')).status, 422);
  t.equal((await check([modelFlow()])).status, 422, 'a list is not a flow');
  t.ok([401, 403].includes((await server.request('/api/v1/validate/flow', { method: 'POST', json: modelFlow(), key: null })).status));
  const huge = flow('Huge', Array.from({ length: 20_000 }, (_, i) => node(`X-${i}`, 'Nope')), []);
  const hugeReport = await check(huge, '?level=2');
  t.equal(hugeReport.body.issues.filter((i: { level: number }) => i.level === 2).length, 20_000);
  const spec = await (await server.request('/openapi.json')).json();
  t.ok(spec.paths['/api/v1/validate/flow'].post, 'documented in /openapi.json');
});
