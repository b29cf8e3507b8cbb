/**
 * WS /api/v1/voice/ws/flow_as_tool: voice to voice through a (local, fake) realtime model with the flow as its
 * tool. The tool call runs the flow through the real service and its answer goes back to the model to speak.
 */
import t from 'tap';
import { chatModelFlow, openaiModelTemplate } from './support/model-flows.js';
import { flowId, startVoiceStack, VoiceClient } from './support/voice-stack.js';

t.test('a tool call runs the flow; its answer is handed back and the model speaks; leaving closes the upstream', async (t) => {
  const stack = await startVoiceStack();
  t.teardown(() => stack.close());
  const id = await flowId(stack, { ...chatModelFlow('Weather desk', 'LanguageModelComponent', openaiModelTemplate()), description: 'Answers weather questions' });
  const url = `${stack.voiceUrl.replace('/flow_tts', '/flow_as_tool')}/${id}/tool-session?x-api-key=${stack.server.apiKey}`;
  const client = await VoiceClient.open(url);
  stack.realtimeModel.heard = 'will it rain';
  client.speak();

  await client.next('input_audio_buffer.speech_started');
  const call = await client.next('response.function_call_arguments.done');
  t.same(JSON.parse(call.arguments), { input: 'will it rain' });
  const progress = await client.next('flow.build.progress', (e) => e.data.event === 'add_message' && e.data.data.sender === 'User');
  t.equal(progress.data.data.text, 'will it rain', 'the flow ran with the tool call input');
  const spoken = await client.next('response.audio.delta');
  t.ok(Buffer.from(spoken.delta, 'base64').length > 0);
  await client.next('response.done', (e) => e.response.id === spoken.response_id);

  const upstream = stack.realtimeModel.connections[0];
  t.equal(upstream.headers.authorization, 'Bearer sk-voice');
  t.equal(upstream.session.tools[0].name, 'execute_flow');
  t.equal(upstream.session.tools[0].description, 'Answers weather questions', "the flow's description tells the model when to call it");
  t.same(upstream.toolOutputs, [{ call_id: call.call_id, output: 'You said: will it rain' }], "the flow's answer went back as the call's output");
  const messages = await (await stack.server.request(`/api/v1/monitor/messages?flow_id=${id}&session_id=tool-session`)).json();
  t.same(messages.map((m: any) => m.text), ['will it rain', 'You said: will it rain'], "the flow's messages are the session's");

  const closed = stack.realtimeModel.nextClose();
  client.ws.terminate();
  await closed;
  t.ok(upstream.closed, 'the realtime model connection was closed');
});

t.test('flow_as_tool refuses like flow_tts: an unknown flow', async (t) => {
  const stack = await startVoiceStack();
  t.teardown(() => stack.close());
  const client = new VoiceClient(`${stack.voiceUrl.replace('/flow_tts', '/flow_as_tool')}/no-such-flow?x-api-key=${stack.server.apiKey}`);
  t.equal((await client.next('error')).code, 'flow_not_found');
  t.equal((await client.closed).code, 1008);
  t.equal(stack.realtimeModel.connections.length, 0, 'no upstream was opened');
});
