/**
 * LanguageModel: what a model component's `model_output` carries to StructuredOutput and Agent: the provider,
 * model and call settings, and a factory for the AI SDK model. The API key lives only inside `sdk`, so a model
 * value that ends up in a run reply (a debug output) serialises without its secret.
 */
import type { LanguageModel } from 'ai';

export type ModelProvider = 'OpenAI' | 'Anthropic' | 'Google' | 'Ollama';

/** Settings every call with this model uses (AI SDK names). */
export interface ModelCallSettings {
  temperature?: number;
  maxOutputTokens?: number;
  seed?: number;
  maxRetries?: number;
  topP?: number;
  stopSequences?: string[];
}

export interface LanguageModelValue {
  kind: 'language_model';
  provider: ModelProvider;
  model: string;
  baseURL: string;
  settings: ModelCallSettings;
  /** Abort a call that takes longer (OpenAI's `timeout` field). */
  timeoutMs?: number;
  /** Ask for a JSON object reply (OpenAI's `json_mode`). */
  jsonMode?: boolean;
  /** The AI SDK model (a new one per call is cheap: it only holds configuration). */
  sdk(): Promise<LanguageModel>;
}

export const isLanguageModel = (value: unknown): value is LanguageModelValue =>
  typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'language_model';
