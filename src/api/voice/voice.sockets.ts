/**
 * WS /api/v1/voice/ws/flow_tts/{flow_id}[/{session_id}]: a spoken conversation with a flow (VoiceSession). The
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
import type { VoiceDeps } from '../../services/voice/voice-socket-session.js';
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
  const route = (path: string): SocketRoute => ({
    path,
    summary: 'Speak with a flow: audio in, transcripts, the run and its spoken answer out',
    maxFrameBytes: VOICE_FRAME_MAX_BYTES,
    open: (upgrade, socket) =>
      new VoiceSession(deps, socket, {
        flowId: upgrade.params.flow_id,
        sessionId: upgrade.params.session_id,
        credentials: credentialsOfUpgrade(upgrade),
        requestVariables: headerVariables(upgrade.headers),
      }),
  });
  return [route('/api/v1/voice/ws/flow_tts/:flow_id'), route('/api/v1/voice/ws/flow_tts/:flow_id/:session_id')];
}
