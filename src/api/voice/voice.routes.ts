/** GET /api/v1/voice/elevenlabs/voice_ids: the voices of the user's ElevenLabs account, as Langflow lists them. */
import { ElevenLabsVoices } from '../../../protocol/voice.schema.js';
import { defineRoute, type Route } from '../../edge/route.js';
import type { Services } from '../../services/services.js';
import { elevenLabsVoices } from '../../services/voice/providers/elevenlabs-tts.js';
import { voiceKeyResolver } from '../../services/voice/voice-keys.js';
import { headerVariables } from '../run/global-vars.js';

export function voiceRoutes(services: Services): Route[] {
  const key = voiceKeyResolver(services.variables, services.config);
  return [
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
