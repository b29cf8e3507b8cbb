/**
 * Heavy modules (the AI SDK and its providers, arquero) load ahead of a run only for flows that need them: a service
 * whose flows do not never holds them, and saving a flow that does starts loading what its nodes need, no more.
 */
import t from 'tap';
import { selectedProvider } from '../src/components/models/model-selection.js';
import { aiSdk, anthropicProvider, arquero, compatibleProvider, openaiProvider } from '../src/components/shared/heavy-modules.js';
import { createFlow, flowBody } from './support/flow-helpers.js';
import { oneNodeFlow, warmedUp } from './support/heavy-flows.js';
import { startTestServer } from './support/server.js';

const all = [aiSdk, openaiProvider, anthropicProvider, compatibleProvider, arquero];
const loadedOnes = () => all.filter((module) => module.peek() !== undefined).length;

t.test('only what saved flows need is loaded, in the background', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());

  await createFlow(server, flowBody('plain chat'));
  await createFlow(server, oneNodeFlow('OpenAI without JSON mode', 'OpenAIModel', { model_name: 'gpt-4o-mini' }));
  await createFlow(server, oneNodeFlow('Language Model on OpenAI', 'LanguageModelComponent', { provider: 'OpenAI' }));
  await createFlow(server, oneNodeFlow('not a flow that builds', 'NoSuchComponent'));
  await warmedUp(server);
  t.equal(loadedOnes(), 0, 'flows on our own chat client, or invalid ones, load no heavy module');

  await createFlow(server, oneNodeFlow('table work', 'DataOperations'));
  await warmedUp(server);
  t.ok(arquero.peek(), 'a Data Operations node loads arquero');
  t.equal(aiSdk.peek(), undefined, 'and not the AI SDK');

  const jsonMode = await createFlow(server, flowBody('JSON later'));
  const res = await server.request(`/api/v1/flows/${jsonMode.id}`, { method: 'PATCH', json: oneNodeFlow('JSON now', 'OpenAIModel', { json_mode: true }) });
  t.equal(res.status, 200);
  await warmedUp(server);
  t.ok(aiSdk.peek() && openaiProvider.peek(), 'an OpenAI node changed to JSON mode loads the SDK and its OpenAI provider');
  t.equal(anthropicProvider.peek(), undefined, 'not the Anthropic provider');
  t.equal(compatibleProvider.peek(), undefined, 'nor the OpenAI-compatible one');

  await createFlow(server, oneNodeFlow('Claude', 'LanguageModelComponent', { provider: 'Anthropic' }));
  await warmedUp(server);
  t.ok(anthropicProvider.peek(), 'a Language Model on Anthropic loads the Anthropic provider');
  t.equal(compatibleProvider.peek(), undefined, 'and not the OpenAI-compatible one');
});

t.test('the provider a node names ahead of a run: model selections, provider names, nothing usable', async (t) => {
  t.equal(selectedProvider([{ name: 'claude-sonnet-4', provider: 'Anthropic' }]), 'Anthropic', 'a Langflow 1.7+ model selection');
  t.equal(selectedProvider([{ name: 'gemini', provider: 'Google Generative AI' }], 'OpenAI'), 'Google', 'the model field wins over the provider field');
  t.equal(selectedProvider([], 'Ollama'), undefined, 'an empty selection (the 1.8 starters) fails the run whatever the provider field says, so it names none');
  t.equal(selectedProvider(undefined, 'Google Generative AI'), 'Google', 'an Agent names its provider in agent_llm');
  t.equal(selectedProvider(undefined, 'Custom'), undefined, 'an unsupported provider names none (the run reports it)');
  t.equal(selectedProvider([{ provider: 'OpenAI' }]), undefined, 'a selection without a model name names none');
  t.equal(selectedProvider(undefined, undefined), undefined);
});
