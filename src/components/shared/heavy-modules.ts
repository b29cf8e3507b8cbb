/** The heavy dependencies components load on first use (see lazy-module.ts), and the background warm-up. */
import { lazyModule } from './lazy-module.js';

export const aiSdk = lazyModule('ai', () => import('ai'));
export const openaiProvider = lazyModule('@ai-sdk/openai', () => import('@ai-sdk/openai'));
export const anthropicProvider = lazyModule('@ai-sdk/anthropic', () => import('@ai-sdk/anthropic'));
export const compatibleProvider = lazyModule('@ai-sdk/openai-compatible', () => import('@ai-sdk/openai-compatible'));
export const arquero = lazyModule('arquero', () => import('arquero'));

/** Loads every heavy module now (after the service listens); failures surface on first use instead. */
export async function warmHeavyModules(): Promise<void> {
  await Promise.allSettled([aiSdk, openaiProvider, anthropicProvider, compatibleProvider, arquero].map((module) => module.load()));
}
