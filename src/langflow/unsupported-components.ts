/**
 * Langflow component types we know of and do not run, each with why: the one table behind every "cannot run here"
 * (runs, builds, MCP calls, v2 jobs, upload and create answers, `flowsvc validate`). Adding a component to the
 * registry (src/components/registry.ts) supersedes its line here, and a test asks for the line to go; a new
 * refusal is one line. A type in neither place is reported as unknown.
 */
import { findComponent } from '../components/registry.js';

/** A hosted service a component calls, and what would be needed of it. */
const service = (name: string) => `calls ${name}, a hosted service this service has no component for yet`;
const vectorStore = (name: string) => `is the ${name} vector store, which this service has no component for yet (knowledge bases, FAISS and Chroma run here)`;
const notBuilt = (what: string) => `${what}: not built in this service yet`;

export const UNSUPPORTED_COMPONENTS: Readonly<Record<string, string>> = {
  // Hosted services (one component each to come, with a base-URL setting for local stand-ins).
  ArXivComponent: service('the arXiv search API'),
  AssemblyAITranscriptionJobCreator: service('AssemblyAI transcription (ASSEMBLYAI_API_KEY)'),
  AssemblyAITranscriptionJobPoller: service('AssemblyAI transcription (ASSEMBLYAI_API_KEY)'),
  needle: service('Needle (NEEDLE_API_KEY)'),
  YfinanceComponent: service('Yahoo Finance'),
  YouTubeCommentsComponent: service('the YouTube Data API (YOUTUBE_API_KEY)'),
  YouTubeTranscripts: service('YouTube'),
  // Vector stores on hosted services.
  AstraDB: vectorStore('DataStax Astra DB'),
  // Local components of the current starters.
  RemixDocumentation: notBuilt('the Nvidia Remix template\'s own component (it loads the RTX Remix documentation into a vector store)'),
  FileDescriptionGeneratorComponent: notBuilt('OpenDsStar\'s docling ingestion (documents converted by docling, then described by a model) for the Structured Data Analysis Agent'),
  FileContentRetriever: notBuilt('OpenDsStar\'s file reading (docling-converted contents kept between runs, tables parsed from them) for the Structured Data Analysis Agent'),
  OpenDsStarAgent: 'runs Python code that a model writes, and this service never runs Python',
};

/** Why a node of this type cannot run here, when the type is one we know of; undefined otherwise. */
export function unsupportedReason(type: string): string | undefined {
  return Object.hasOwn(UNSUPPORTED_COMPONENTS, type) && !findComponent(type) ? UNSUPPORTED_COMPONENTS[type] : undefined;
}
