/**
 * A local stand-in for OpenAI's realtime voice model (`/v1/realtime?model=...`), enough for flow_as_tool: loud
 * audio starts an utterance, the first quiet chunk ends it, and the model calls its one tool with the transcript;
 * once given the tool's output and asked to respond, it "speaks" (audio deltas) and is done.
 */
import type { IncomingMessage } from 'node:http';
import type { WebSocket } from 'ws';
import { rms, tone } from './audio-tone.js';

export interface ModelConnection {
  headers: IncomingMessage['headers'];
  /** The last session.update's session. */
  session: any;
  toolOutputs: { call_id: string; output: string }[];
  closed: boolean;
}

export class FakeRealtimeModel {
  readonly connections: ModelConnection[] = [];
  /** What the user is heard saying. */
  heard = 'ask the flow';
  #closes: (() => void)[] = [];

  nextClose = () => new Promise<void>((resolve) => this.#closes.push(resolve));

  connection(ws: WebSocket, req: IncomingMessage): void {
    const connection: ModelConnection = { headers: req.headers, session: undefined, toolOutputs: [], closed: false };
    this.connections.push(connection);
    const send = (event: object) => ws.send(JSON.stringify(event));
    let speaking = false;
    let responses = 0;
    const respond = (events: (id: string) => object[]) => {
      const id = `resp_${++responses}`;
      send({ type: 'response.created', response: { id } });
      for (const event of events(id)) send(event);
      send({ type: 'response.done', response: { id, status: 'completed' } });
    };
    ws.on('message', (data) => {
      const event = JSON.parse(String(data));
      if (event.type === 'session.update') connection.session = { ...connection.session, ...event.session };
      if (event.type === 'conversation.item.create' && event.item?.type === 'function_call_output') connection.toolOutputs.push({ call_id: event.item.call_id, output: event.item.output });
      if (event.type === 'response.create') {
        respond((id) => [{ type: 'response.audio.delta', response_id: id, delta: tone(20).toString('base64') }, { type: 'response.audio.done', response_id: id }]);
      }
      if (event.type !== 'input_audio_buffer.append') return;
      const loud = rms(Buffer.from(event.audio, 'base64')) > 500;
      if (loud && !speaking) {
        speaking = true;
        send({ type: 'input_audio_buffer.speech_started' });
      } else if (!loud && speaking) {
        speaking = false;
        send({ type: 'conversation.item.input_audio_transcription.completed', item_id: 'item_1', transcript: this.heard });
        respond((id) => [{ type: 'response.function_call_arguments.done', response_id: id, call_id: `call_${id}`, name: 'execute_flow', arguments: JSON.stringify({ input: this.heard }) }]);
      }
    });
    ws.on('close', () => {
      connection.closed = true;
      this.#closes.splice(0).forEach((resolve) => resolve());
    });
  }
}
