/**
 * The heavy dependencies components load on first use (see lazy-module.ts). They are not loaded at start-up: the
 * service loads them ahead only for the stored flows that need them (src/services/module-warm-up.ts), so a service
 * whose flows never call the AI SDK never holds it (~24 MB). Which provider package a model needs: PROVIDERS in
 * models/providers.ts.
 */
import { lazyModule } from './lazy-module.js';

export const aiSdk = lazyModule('ai', () => import('ai'));
export const openaiProvider = lazyModule('@ai-sdk/openai', () => import('@ai-sdk/openai'));
export const anthropicProvider = lazyModule('@ai-sdk/anthropic', () => import('@ai-sdk/anthropic'));
export const compatibleProvider = lazyModule('@ai-sdk/openai-compatible', () => import('@ai-sdk/openai-compatible'));
export const arquero = lazyModule('arquero', () => import('arquero'));
/** The HTTP client of URL and API Request (~60 ms of imports), for its Agent: see private-network-guard.ts. */
export const undici = lazyModule('undici', () => import('undici'));
