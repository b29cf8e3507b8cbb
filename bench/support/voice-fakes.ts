/**
 * The voice bench's providers, one process on one host (as OPENAI_BASE_URL points them all there): a streaming
 * chat model whose first sentence completes on its third token, a speech server streaming 20 ms PCM chunks, and a
 * realtime transcription WebSocket answering each commit with a final transcript. No pauses anywhere: what the
 * bench sees beyond the direct calls is the service's own cost. This file is also its script.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { text } from 'node:stream/consumers';
import { fileURLToPath } from 'node:url';
import { WebSocketServer } from 'ws';
import { startProcess } from './processes.js';

/** The model's reply, one token each: the first sentence ends with the third. */
export const REPLY_TOKENS = ['Hello', ' there', '. ', 'How', ' are', ' you', '?'];
const PCM_CHUNK = Buffer.alloc(960, 1);
const SPEECH_CHUNKS = 4;

const sse = (payload: unknown) => `data: ${JSON.stringify(payload)}\n\n`;

function chat(res: ServerResponse): void {
  const base = { id: 'chatcmpl-voice', object: 'chat.completion.chunk', created: 0, model: 'gpt-4o-mini' };
  const delta = (content: string) => sse({ ...base, choices: [{ index: 0, delta: { content }, logprobs: null, finish_reason: null }] });
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.write(sse({ ...base, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, logprobs: null, finish_reason: null }] }));
  for (const token of REPLY_TOKENS) res.write(delta(token));
  res.write(sse({ ...base, choices: [{ index: 0, delta: {}, logprobs: null, finish_reason: 'stop' }] }));
  res.end('data: [DONE]\n\n');
}

function speech(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'audio/pcm' });
  for (let i = 0; i < SPEECH_CHUNKS; i++) res.write(PCM_CHUNK);
  res.end();
}

function listen(): void {
  const http = createServer(async (req: IncomingMessage, res) => {
    await text(req);
    const path = (req.url ?? '').split('?')[0];
    if (req.method === 'POST' && path === '/v1/chat/completions') return chat(res);
    if (req.method === 'POST' && path === '/v1/audio/speech') return speech(res);
    res.writeHead(404).end();
  });
  const wss = new WebSocketServer({ noServer: true });
  http.on('upgrade', (req, socket, head) => {
    wss.handleUpgrade(req, socket, head, (ws) => {
      let item = 0;
      ws.on('message', (data) => {
        if (!String(data).includes('"input_audio_buffer.commit"')) return;
        const itemId = `item_${++item}`;
        ws.send(JSON.stringify({ type: 'input_audio_buffer.speech_started', item_id: itemId }));
        ws.send(JSON.stringify({ type: 'conversation.item.input_audio_transcription.completed', item_id: itemId, transcript: 'bench question' }));
      });
    });
  });
  http.listen(0, '127.0.0.1', () => process.stdout.write(`listening on http://127.0.0.1:${(http.address() as AddressInfo).port}\n`));
}

export interface VoiceFakes {
  url: string;
  baseURL: string;
  close(): Promise<void>;
}

export async function startVoiceFakes(): Promise<VoiceFakes> {
  const server = await startProcess(fileURLToPath(import.meta.url), []);
  return { url: server.url, baseURL: `${server.url}/v1`, close: server.stop };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) listen();
