/**
 * One flow_as_tool WebSocket: voice to voice through OpenAI's realtime model, with the flow as its one function
 * tool (`execute_flow`), as Langflow offers it. The client's audio goes to the model; the model's events come back
 * as they are (OpenAI's realtime events), and a call of the tool runs the flow (its events as
 * `flow.build.progress`) and hands the flow's answer back for the model to speak. Speech over the model's answer
 * cancels it (barge-in); the client going away closes the upstream and cancels a flow call under way.
 */
import { answerPiece, errorFrame, progressFrame } from '../../langflow/voice-events.js';
import { failureError } from '../../runs/failure-table.js';
import type { LiveRun } from '../../runs/live-run.js';
import type { BuildEnd } from '../builds/build-run.js';
import { openaiRealtimeModelUrl } from './provider-urls.js';
import { RealtimeLink } from './realtime-link.js';
import { prepareVoiceRun, startVoiceRun } from './voice-run.js';
import { VoiceSocketSession, type SessionFrame } from './voice-socket-session.js';

const INSTRUCTIONS =
  'You talk with the user. When answering needs the tool, call execute_flow with the whole request as its input, ' +
  'say briefly that you are on it, and once it returns summarise its result. Never read URLs aloud.';

export class FlowToolSession extends VoiceSocketSession {
  #link: RealtimeLink | undefined;
  #voice = 'echo';
  #responding = false;
  readonly #calls = new Set<LiveRun<BuildEnd>>();

  protected opened(key: string): void {
    this.#link = new RealtimeLink(openaiRealtimeModelUrl, key, {
      greeting: () => [this.#sessionUpdate()],
      event: (event) => this.#upstream(event),
      lost: (error) => void this.send(errorFrame('realtime_failed', error.message)),
    });
  }

  protected ended(): void {
    this.#link?.close();
    for (const call of this.#calls) call.cancel('client_gone');
  }

  protected handle(frame: SessionFrame): void {
    switch (frame.type) {
      case 'input_audio_buffer.append':
      case 'input_audio_buffer.commit':
        return this.#link?.send(JSON.stringify(frame));
      case 'voice.settings':
        if (frame.voice) {
          this.#voice = frame.voice;
          this.#link?.send(JSON.stringify({ type: 'session.update', session: { voice: frame.voice } }));
        }
        return;
      case 'langflow.elevenlabs.config':
        // The realtime model speaks for itself here: ElevenLabs applies to flow_tts only.
        return;
    }
  }

  #sessionUpdate(): string {
    const tool = {
      type: 'function',
      name: 'execute_flow',
      description: this.flow.description || `Run the flow "${this.flow.name}" with the given input`,
      parameters: { type: 'object', properties: { input: { type: 'string', description: 'The input to send to the flow' } }, required: ['input'] },
    };
    const session = {
      modalities: ['text', 'audio'],
      instructions: INSTRUCTIONS,
      voice: this.#voice,
      input_audio_format: 'pcm16',
      output_audio_format: 'pcm16',
      turn_detection: { type: 'server_vad', threshold: 0.1, prefix_padding_ms: 100, silence_duration_ms: 300 },
      input_audio_transcription: { model: 'whisper-1' },
      tools: [tool],
      tool_choice: 'auto',
    };
    return JSON.stringify({ type: 'session.update', session });
  }

  #upstream(event: Record<string, unknown>): void {
    // The model's events reach the client as they are; a slow client pauses the reading of the upstream.
    if (!this.socket.send(JSON.stringify(event))) {
      this.#link?.pause();
      void this.socket.drained().then(() => this.#link?.resume());
    }
    switch (event.type) {
      case 'response.created':
        this.#responding = true;
        return;
      case 'response.done':
        this.#responding = false;
        return;
      case 'input_audio_buffer.speech_started':
        if (this.#responding) this.#link?.send('{"type":"response.cancel"}');
        return;
      case 'response.function_call_arguments.done':
        if (event.name === undefined || event.name === 'execute_flow') void this.#callFlow(String(event.call_id ?? ''), String(event.arguments ?? ''));
        return;
    }
  }

  /** Runs the flow for one tool call and gives the model its answer (or what went wrong) to speak. */
  async #callFlow(callId: string, args: string): Promise<void> {
    let output: string;
    try {
      const input = String((JSON.parse(args) as { input?: unknown }).input ?? '');
      const run = prepareVoiceRun(this.deps.runner, { flow: this.flow, userId: this.userId, input, sessionId: this.request.sessionId, requestVariables: this.request.requestVariables });
      // The answer's whole message when one comes with its text, else its streamed tokens.
      let answer = '';
      let streamed = '';
      const live = startVoiceRun(this.deps.runs, run, (event, data) => {
        this.send(progressFrame(event, data));
        const piece = answerPiece(event, data);
        if (piece?.kind === 'token') streamed += piece.text;
        else if (piece?.text) answer = piece.text;
      });
      this.#calls.add(live);
      const result = await live.answer.finally(() => this.#calls.delete(live));
      output = result.failure ? `The flow failed: ${failureError(result.failure).message}` : answer || streamed;
    } catch (error) {
      output = `The flow could not run: ${(error as Error).message}`;
    }
    if (this.isClosed) return;
    this.#link?.send(JSON.stringify({ type: 'conversation.item.create', item: { type: 'function_call_output', call_id: callId, output } }));
    this.#link?.send('{"type":"response.create"}');
  }
}
