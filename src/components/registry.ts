/** The explicit list of every component the service knows. No directory scanning: add a line here. */
import type { ComponentDefinition, FieldMap } from './contract.js';
import { chatInput } from './io/chat-input.js';
import { chatOutput } from './io/chat-output.js';
import { textInput, textOutput } from './io/text-io.js';
import { dataOperations } from './data-operations/definition.js';
import { agent } from './agents/agent.js';
import { anthropicModel } from './models/anthropic-model.js';
import { languageModel } from './models/language-model.js';
import { ollamaModel } from './models/ollama-model.js';
import { openaiModel } from './models/openai-model.js';
import { structuredOutput } from './models/structured-output.js';
import { batchRun } from './models/batch-run.js';
import { apiRequest } from './data/api-request.js';
import { fileComponent } from './data/file.js';
import { urlComponent } from './data/url.js';
import { webhook } from './data/webhook.js';
import { calculator } from './helpers/calculator.js';
import { currentDate } from './helpers/current-date.js';
import { memory } from './helpers/memory.js';
import { conditionalRouter } from './logic/conditional-router.js';
import { loopComponent } from './logic/loop.js';
import { mergeFlows } from './logic/merge-flows.js';
import { saveToFile } from './files/save-to-file.js';
import { mcpTools } from './mcp/mcp-tools.js';
import { parser } from './processing/parser.js';
import { splitTextComponent } from './processing/split-text.js';
import { typeConverter } from './processing/type-converter.js';
import { promptComponent } from './prompts/prompt.js';
import { withToolMode } from './tools/tool-mode.js';
import { chroma } from './knowledge/chroma.js';
import { embeddingModel } from './knowledge/embedding-model.js';
import { faiss } from './knowledge/faiss.js';
import { knowledge } from './knowledge/knowledge.js';
import { ollamaEmbeddings } from './knowledge/ollama-embeddings.js';
import { openaiEmbeddings } from './knowledge/openai-embeddings.js';
import { tavilySearch } from './search/tavily-search.js';
import { agentql } from './search/agentql.js';
import { scrapeGraphSearch } from './search/scrapegraph-search.js';
import { searchApiSearch } from './search/searchapi-search.js';
import { apifyActors } from './search/apify-actors.js';
import { needle } from './services/needle.js';
import { assemblyJobCreator } from './services/assemblyai-job-creator.js';
import { assemblyJobPoller } from './services/assemblyai-job-poller.js';
import { arxiv } from './services/arxiv.js';
import { yfinance } from './services/yfinance.js';
import { youtubeComments } from './services/youtube-comments.js';
import { remixDocumentation } from './services/remix-documentation.js';
import { youtubeTranscripts } from './services/youtube-transcripts.js';

export const COMPONENTS: readonly ComponentDefinition<FieldMap>[] = [
  chatInput,
  chatOutput,
  textInput,
  textOutput,
  languageModel,
  openaiModel,
  anthropicModel,
  ollamaModel,
  structuredOutput,
  batchRun,
  agent,
  promptComponent,
  memory,
  parser,
  splitTextComponent,
  fileComponent,
  withToolMode(urlComponent),
  withToolMode(apiRequest),
  conditionalRouter,
  loopComponent,
  mergeFlows,
  withToolMode(saveToFile),
  mcpTools,
  withToolMode(calculator),
  withToolMode(currentDate),
  typeConverter,
  webhook,
  dataOperations,
  knowledge,
  embeddingModel,
  openaiEmbeddings,
  ollamaEmbeddings,
  faiss,
  chroma,
  remixDocumentation,
  withToolMode(tavilySearch),
  withToolMode(agentql),
  withToolMode(scrapeGraphSearch),
  withToolMode(searchApiSearch),
  apifyActors,
  needle,
  assemblyJobCreator,
  assemblyJobPoller,
  arxiv,
  yfinance,
  youtubeComments,
  youtubeTranscripts,
] as unknown as ComponentDefinition<FieldMap>[];

const byType = new Map<string, ComponentDefinition<FieldMap>>();
for (const component of COMPONENTS) {
  for (const key of [component.type, ...(component.aliases ?? [])]) {
    if (byType.has(key)) throw new Error(`component type ${key} is registered twice`);
    byType.set(key, component);
  }
}

/** The component for a Langflow `data.type` (or one of its aliases). */
export function findComponent(type: string): ComponentDefinition<FieldMap> | undefined {
  return byType.get(type);
}
