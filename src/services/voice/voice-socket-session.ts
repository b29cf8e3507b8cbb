/**
 * What both voice WebSockets (flow_tts, flow_as_tool) do before and around their own work: admit the caller
 * (credentials, their flow, the OpenAI key), hold the frames that arrive meanwhile (bounded), validate every
 * frame against protocol/voice.schema.ts (a bad one gets an error event and the session goes on), and refuse a
 * session that cannot open with an error event, then close code 1008.
 */
import type { FlowRecord } from '../../../protocol/flow.schema.js';
import { ID_MAX_CHARS, idTooLong } from '../../../protocol/limits.js';
import type { ClientFrame, ServerFrame, SttProviderName, TtsProviderName } from '../../../protocol/voice.schema.js';
import type { Credentials, Principal } from '../../auth/principal.js';
import type { EdgeSocket, SocketListener } from '../../edge/socket-route.js';
import { errorFrame, VOICE_MESSAGES } from '../../langflow/voice-events.js';
import type { Logger } from '../../logger.js';
import type { Runs } from '../../runs/run-lifecycle.js';
import type { FlowRunner } from '../flow-runner.js';
import { parseFrame } from './client-frames.js';
import type { VoiceKeyResolver } from './voice-keys.js';

export interface VoiceDeps {
  /** Resolves the caller, or rejects (the session then closes). */
  authenticate(credentials: Credentials): Promise<Principal | null>;
  findFlow(userId: string, flowId: string): Promise<FlowRecord | undefined>;
  runner: Pick<FlowRunner, 'prepare'>;
  runs: Runs;
  key: VoiceKeyResolver;
  defaults: { stt: SttProviderName; tts: TtsProviderName };
  logger: Logger;
}

export interface VoiceRequest {
  flowId: string;
  sessionId?: string;
  credentials: Credentials;
  requestVariables: Record<string, string>;
}

/** Close code of a session refused (auth, flow, key): a policy violation, after an error event saying which. */
export const CLOSE_REFUSED = 1008;
/** Every voice session reads OpenAI's key: transcription (flow_tts) or the realtime model (flow_as_tool). */
export const OPENAI_KEY_NAME = 'OPENAI_API_KEY';
/** Characters of frames held while the session opens; past it the oldest go. */
const EARLY_CHARS_MAX = 1 << 20;
/** How long a connection without credentials may wait before its first frame brings them (`voice.auth`). */
const AUTH_FRAME_DEADLINE_MS = 10_000;

/** Why the path's ids cannot name a flow or session (each bounded like every id), or undefined when they can. */
function idTooLongIn({ flowId, sessionId }: VoiceRequest): string | undefined {
  if (idTooLong(flowId)) return VOICE_MESSAGES.idTooLong('flow id', ID_MAX_CHARS);
  if (idTooLong(sessionId)) return VOICE_MESSAGES.idTooLong('session id', ID_MAX_CHARS);
  return undefined;
}

/** The frames a session handles once admitted (credentials are the admission's). */
export type SessionFrame = Exclude<ClientFrame, { type: 'voice.auth' }>;

export abstract class VoiceSocketSession implements SocketListener {
  #ready = false;
  /** Set while a connection without credentials waits for them in its first frame. */
  #authDeadline: NodeJS.Timeout | undefined;
  protected isClosed = false;
  #early: { frame: SessionFrame; chars: number }[] = [];
  #earlyChars = 0;
  protected userId = '';
  protected flow!: FlowRecord;

  constructor(
    protected readonly deps: VoiceDeps,
    protected readonly socket: EdgeSocket,
    protected readonly request: VoiceRequest,
  ) {
    const tooLong = idTooLongIn(request);
    if (tooLong) {
      // Refused before anything is looked up: a store key cannot hold such an id.
      this.#refuse(errorFrame('invalid_path', tooLong));
      return;
    }
    const { apiKey, bearer } = request.credentials;
    if (apiKey || bearer) {
      this.#start();
    } else {
      this.#authDeadline = setTimeout(() => this.#refuse(errorFrame('langflow_auth', VOICE_MESSAGES.auth)), AUTH_FRAME_DEADLINE_MS);
      this.#authDeadline.unref();
    }
  }

  #start(): void {
    this.#open().catch((error: unknown) => {
      this.deps.logger.error({ err: error }, 'voice session could not open');
      this.#refuse(errorFrame('flow_failed', 'The voice session could not start'));
    });
  }

  /** The session is admitted: frames held meanwhile follow at once. */
  protected abstract opened(openaiKey: string): void;
  protected abstract handle(frame: SessionFrame): void;
  /** The client is gone: stop everything started for it. */
  protected abstract ended(): void;

  message(text: string, binary: boolean): void {
    if (this.isClosed) return;
    const parsed = parseFrame(text, binary);
    if (this.#authDeadline) return this.#authenticateBy(parsed.success ? parsed.data : undefined);
    if (!parsed.success) return void this.send(errorFrame('invalid_frame', parsed.message));
    const frame = parsed.data;
    // Credentials again once admitted change nothing: the session acts for whoever opened it.
    if (frame.type === 'voice.auth') return;
    if (this.#ready) return this.handle(frame);
    this.#early.push({ frame, chars: text.length });
    this.#earlyChars += text.length;
    while (this.#earlyChars > EARLY_CHARS_MAX && this.#early.length > 1) this.#earlyChars -= this.#early.shift()!.chars;
  }

  /** The first frame of a connection that came without credentials: they, or the session is refused. */
  #authenticateBy(frame: ClientFrame | undefined): void {
    clearTimeout(this.#authDeadline);
    this.#authDeadline = undefined;
    if (frame?.type !== 'voice.auth' || !(frame.api_key || frame.token)) return this.#refuse(errorFrame('langflow_auth', VOICE_MESSAGES.auth));
    this.request.credentials = { apiKey: frame.api_key, bearer: frame.api_key ? undefined : frame.token };
    this.#start();
  }

  closed(): void {
    clearTimeout(this.#authDeadline);
    this.#authDeadline = undefined;
    this.isClosed = true;
    this.#early = [];
    this.ended();
  }

  protected key(name: string): Promise<string | undefined> {
    return this.deps.key(this.userId, name, this.request.requestVariables);
  }

  protected send(frame: ServerFrame): boolean {
    return this.socket.send(JSON.stringify(frame));
  }

  async #open(): Promise<void> {
    const principal = await this.deps.authenticate(this.request.credentials).catch(() => null);
    if (!principal) return this.#refuse(errorFrame('langflow_auth', VOICE_MESSAGES.auth));
    this.userId = principal.userId;
    const flow = await this.deps.findFlow(principal.userId, this.request.flowId);
    // Another user's flow is not found either: whether it exists is not the caller's to learn.
    if (!flow) return this.#refuse(errorFrame('flow_not_found', VOICE_MESSAGES.flowNotFound));
    this.flow = flow;
    const key = await this.key(OPENAI_KEY_NAME);
    if (!key) return this.#refuse(errorFrame('api_key_missing', VOICE_MESSAGES.keyMissing(OPENAI_KEY_NAME), OPENAI_KEY_NAME));
    if (this.isClosed) return;
    this.#ready = true;
    this.opened(key);
    this.#earlyChars = 0;
    for (const { frame } of this.#early.splice(0)) this.handle(frame);
  }

  #refuse(frame: ServerFrame): void {
    if (this.isClosed) return;
    this.send(frame);
    this.socket.close(CLOSE_REFUSED, frame.type === 'error' ? frame.code : 'refused');
  }
}
