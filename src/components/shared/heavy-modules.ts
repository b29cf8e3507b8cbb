/**
 * The heavy dependencies components load on first use (see lazy-module.ts), and which of them a model call needs.
 * They are not loaded at start-up: the service loads them ahead only for the stored flows that need them
 * (src/services/module-warm-up.ts), so a service whose flows never call the AI SDK never holds it (~24 MB).
 */
import type { ModelProvider } from '../../values/language-model.js';
import { lazyModule, type LazyModule } from './lazy-module.js';

export const aiSdk = lazyModule('ai', () => import('ai'));
export const openaiProvider = lazyModule('@ai-sdk/openai', () => import('@ai-sdk/openai'));
export const anthropicProvider = lazyModule('@ai-sdk/anthropic', () => import('@ai-sdk/anthropic'));
export const compatibleProvider = lazyModule('@ai-sdk/openai-compatible', () => import('@ai-sdk/openai-compatible'));
export const arquero = lazyModule('arquero', () => import('arquero'));

/** What a call through the AI SDK loads: the SDK and the provider's package (every provider's when not known). */
export function sdkModules(provider?: ModelProvider): readonly LazyModule<unknown>[] {
  switch (provider) {
    case 'OpenAI':
      return [aiSdk, openaiProvider];
    case 'Anthropic':
      return [aiSdk, anthropicProvider];
    case 'Google':
    case 'Ollama':
      return [aiSdk, compatibleProvider];
    default:
      return [aiSdk, openaiProvider, anthropicProvider, compatibleProvider];
  }
}
