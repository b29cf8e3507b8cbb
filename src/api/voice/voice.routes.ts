/**
 * GET /api/v1/voice/elevenlabs/voice_ids: the voices of the user's ElevenLabs account, as Langflow lists them. A
 * plain request to a voice WebSocket path is told to upgrade (426) rather than left to a 404.
 */
import { ElevenLabsVoices } from '../../../protocol/voice.schema.js';
import { Reply } from '../../edge/reply.js';
import { defineRoute, type Route } from '../../edge/route.js';
import type { Services } from '../../services/services.js';
import { elevenLabsVoices } from '../../services/voice/providers/elevenlabs-tts.js';
import { voiceKeyResolver } from '../../services/voice/voice-keys.js';
import { headerVariables } from '../run/global-vars.js';

export function voiceRoutes(services: Services): Route[] {
  const key = voiceKeyResolver(services.variables, services.config);
  const upgradeRequired = (path: string) =>
    defineRoute({
      method: 'GET',
      path,
      summary: 'A WebSocket: speak with a flow (connect with an Upgrade request; frames in the voice protocol)',
      tags: ['Voice'],
      auth: 'none',
      handler: () => Reply.json({ detail: 'This path is a WebSocket: connect with an Upgrade request' }, 426, { upgrade: 'websocket' }),
    });
  return [
    upgradeRequired('/api/v1/voice/ws/flow_tts/:flow_id'),
    upgradeRequired('/api/v1/voice/ws/flow_tts/:flow_id/:session_id'),
    upgradeRequired('/api/v1/voice/ws/flow_as_tool/:flow_id'),
    upgradeRequired('/api/v1/voice/ws/flow_as_tool/:flow_id/:session_id'),
    defineRoute({
      method: 'GET',
      path: '/api/v1/voice/elevenlabs/voice_ids',
      summary: "The ElevenLabs voices the user's key can use",
      tags: ['Voice'],
      auth: 'user',
      responses: { 200: { description: 'The voices, or `{"error": ...}` when ElevenLabs cannot be asked (Langflow answers 200 either way)', schema: ElevenLabsVoices } },
      async handler({ principal, headers }) {
        const apiKey = await key(principal!.userId, 'ELEVENLABS_API_KEY', headerVariables(headers));
        if (!apiKey) return { error: 'ELEVENLABS_API_KEY is not set: store it as a global variable' };
        try {
          return await elevenLabsVoices(apiKey, AbortSignal.timeout(15_000));
        } catch (error) {
          return { error: (error as Error).message };
        }
      },
    }),
  ];
}
