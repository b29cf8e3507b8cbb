/**
 * WS /api/v1/voice/ws/flow_tts/{flow_id}[/{session_id}]: a spoken conversation with a flow (VoiceSession), and
 * WS /api/v1/voice/ws/flow_as_tool/{flow_id}[/{session_id}]: OpenAI's realtime model with the flow as its tool. The
 * credentials are read from the upgrade request as Langflow's WebSocket auth reads them: an API key (`x-api-key`
 * query parameter or header) or an access token (`token` query parameter, bearer header, `access_token_lf` cookie).
 */
import { VOICE_FRAME_MAX_BYTES } from '../../../protocol/voice.schema.js';
import type { Credentials } from '../../auth/principal.js';
import type { SocketRoute, SocketUpgrade } from '../../edge/socket-route.js';
import { credentialsOf } from '../../edge/wire.js';
import type { Services } from '../../services/services.js';
import { voiceKeyResolver } from '../../services/voice/voice-keys.js';
import { VoiceSession } from '../../services/voice/voice-session.js';
import type { VoiceDeps, VoiceRequest } from '../../services/voice/voice-socket-session.js';
import { FlowToolSession } from '../../services/voice/flow-tool-session.js';
import { headerVariables } from '../run/global-vars.js';

function credentialsOfUpgrade(upgrade: SocketUpgrade): Credentials {
  const credentials = credentialsOf(upgrade.headers, upgrade.query);
  if (!credentials.apiKey && !credentials.bearer && upgrade.query.token) credentials.bearer = upgrade.query.token;
  return credentials;
}

export function voiceSocketRoutes(services: Services): SocketRoute[] {
  const { config } = services;
  const deps: VoiceDeps = {
    authenticate: (credentials) => services.authenticator.authenticate('user', credentials),
    findFlow: (userId, flowId) => services.flows.findRunnable(userId, flowId),
    runner: services.runner,
    runs: services.runs,
    key: voiceKeyResolver(services.variables, config),
    defaults: { stt: config.VOICE_STT, tts: config.VOICE_TTS },
    logger: services.logger,
  };
  const requestOf = (upgrade: SocketUpgrade): VoiceRequest => ({
    flowId: upgrade.params.flow_id,
    sessionId: upgrade.params.session_id,
    credentials: credentialsOfUpgrade(upgrade),
    requestVariables: headerVariables(upgrade.headers),
  });
  const route = (path: string, summary: string, open: SocketRoute['open']): SocketRoute => ({ path, summary, maxFrameBytes: VOICE_FRAME_MAX_BYTES, open });
  const tts: SocketRoute['open'] = (upgrade, socket) => new VoiceSession(deps, socket, requestOf(upgrade));
  const tool: SocketRoute['open'] = (upgrade, socket) => new FlowToolSession(deps, socket, requestOf(upgrade));
  const ttsSummary = 'Speak with a flow: audio in, transcripts, the run and its spoken answer out';
  const toolSummary = "Voice to voice with OpenAI's realtime model, the flow as its tool";
  return [
    route('/api/v1/voice/ws/flow_tts/:flow_id', ttsSummary, tts),
    route('/api/v1/voice/ws/flow_tts/:flow_id/:session_id', ttsSummary, tts),
    route('/api/v1/voice/ws/flow_as_tool/:flow_id', toolSummary, tool),
    route('/api/v1/voice/ws/flow_as_tool/:flow_id/:session_id', toolSummary, tool),
  ];
}
