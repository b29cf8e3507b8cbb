/**
 * Provider wiring on the AI SDK: which SDK provider serves each Langflow provider, where its API is (the node's
 * base-URL field, else `<PROVIDER>_BASE_URL` from the environment, else the public default) and which global
 * variable holds its key. OpenAI is called through chat completions (`openai.chat`), not the Responses API,
 * so any OpenAI-compatible server works; Google and Ollama go through their OpenAI-compatible endpoints.
 */
import { aiSdk, anthropicProvider, compatibleProvider, openaiProvider } from '../shared/heavy-modules.js';
import type { LazyModule } from '../shared/lazy-module.js';
import type { LanguageModel } from 'ai';
import type { LanguageModelValue, ModelCallSettings, ModelProvider } from '../../values/language-model.js';
import { chatEndpoint, type ChatEndpoint } from './chat-completions/endpoint.js';

// Call warnings (a setting the model ignores, such as temperature on reasoning models) are expected here; the
// SDK would print each one to stderr through process.emitWarning.
globalThis.AI_SDK_LOG_WARNINGS = false;

interface ProviderInfo {
  defaultBaseURL: string;
  baseURLEnv: string;
  /** The global variable that holds the key when the node names none. */
  keyVariable?: string;
  /** The SDK wants the API root with its version segment. */
  appendV1: boolean;
  /** The AI SDK provider package that serves it (loaded on first use). */
  sdkPackage: LazyModule<unknown>;
  /** The model for a call through the SDK, from that package. */
  sdkModel(model: string, apiKey: string, baseURL: string): Promise<LanguageModel>;
}

/** Google and Ollama: the OpenAI-compatible package, under the provider's own name. */
const compatibleModel = (name: string) => async (model: string, apiKey: string, baseURL: string) =>
  (await compatibleProvider.load()).createOpenAICompatible({ name, apiKey: apiKey || undefined, baseURL, includeUsage: true, supportsStructuredOutputs: true }).chatModel(model);

export const PROVIDERS: Readonly<Record<ModelProvider, ProviderInfo>> = {
  OpenAI: {
    defaultBaseURL: 'https://api.openai.com/v1',
    baseURLEnv: 'OPENAI_BASE_URL',
    keyVariable: 'OPENAI_API_KEY',
    appendV1: false,
    sdkPackage: openaiProvider,
    sdkModel: async (model, apiKey, baseURL) => (await openaiProvider.load()).createOpenAI({ apiKey, baseURL }).chat(model),
  },
  Anthropic: {
    defaultBaseURL: 'https://api.anthropic.com',
    baseURLEnv: 'ANTHROPIC_BASE_URL',
    keyVariable: 'ANTHROPIC_API_KEY',
    appendV1: true,
    sdkPackage: anthropicProvider,
    sdkModel: async (model, apiKey, baseURL) => (await anthropicProvider.load()).createAnthropic({ apiKey, baseURL })(model),
  },
  Google: {
    defaultBaseURL: 'https://generativelanguage.googleapis.com/v1beta/openai',
    baseURLEnv: 'GOOGLE_BASE_URL',
    keyVariable: 'GOOGLE_API_KEY',
    appendV1: false,
    sdkPackage: compatibleProvider,
    sdkModel: compatibleModel('google'),
  },
  Ollama: { defaultBaseURL: 'http://localhost:11434', baseURLEnv: 'OLLAMA_BASE_URL', appendV1: true, sdkPackage: compatibleProvider, sdkModel: compatibleModel('ollama') },
};

/** What a call through the AI SDK loads: the SDK and the provider's package (every provider's when not known). */
export function sdkModules(provider?: ModelProvider): readonly LazyModule<unknown>[] {
  const packages = provider ? [PROVIDERS[provider].sdkPackage] : Object.values(PROVIDERS).map((info) => info.sdkPackage);
  return [aiSdk, ...new Set(packages)];
}

/**
 * The API root the SDK is given. Anthropic's and Ollama's URLs are conventionally written without `/v1`
 * (Langflow's `https://api.anthropic.com`, `http://localhost:11434`); the SDK paths need it, so it is added.
 */
export function resolveBaseURL(provider: ModelProvider, fieldValue?: string | null): string {
  const info = PROVIDERS[provider];
  const raw = (fieldValue?.trim() || process.env[info.baseURLEnv]?.trim() || info.defaultBaseURL).replace(/\/+$/, '');
  return info.appendV1 && !/\/v\d+$/.test(raw) ? `${raw}/v1` : raw;
}

export interface ModelSpec {
  provider: ModelProvider;
  model: string;
  apiKey: string;
  baseURL: string;
  settings?: ModelCallSettings;
  timeoutMs?: number;
  jsonMode?: boolean;
}

/**
 * Plain text calls to the OpenAI-compatible providers go through our own client (chat-completions/); its
 * endpoint (URL and headers with the key) is kept beside the model value rather than on it, so the value still
 * serialises without its secret. A model value not made here (none today) simply takes the SDK path.
 */
const endpoints = new WeakMap<LanguageModelValue, ChatEndpoint>();

/** Where our own chat-completions client sends this model's calls; undefined for Anthropic. */
export const chatEndpointOf = (model: LanguageModelValue): ChatEndpoint | undefined => endpoints.get(model);

export function createLanguageModel(spec: ModelSpec): LanguageModelValue {
  const { provider, model, apiKey, baseURL } = spec;
  const value: LanguageModelValue = {
    kind: 'language_model',
    provider,
    model,
    baseURL,
    settings: spec.settings ?? {},
    timeoutMs: spec.timeoutMs,
    jsonMode: spec.jsonMode,
    sdk: () => PROVIDERS[provider].sdkModel(model, apiKey, baseURL),
  };
  const endpoint = provider === 'Anthropic' ? undefined : chatEndpoint(provider, baseURL, apiKey, provider === 'OpenAI');
  if (endpoint) endpoints.set(value, endpoint);
  return value;
}
