/**
 * Langflow component types we know of and do not run, each with why: the one table behind every "cannot run here"
 * (runs, builds, MCP calls, v2 jobs, upload and create answers, `flowsvc validate`). Adding a component to the
 * registry (src/components/registry.ts) supersedes its line here, and a test asks for the line to go; a new
 * refusal is one line. A type in neither place is reported as unknown.
 */
import { findComponent } from '../components/registry.js';

const vectorStore = (name: string) => `is the ${name} vector store, which this service has no component for yet (knowledge bases, FAISS and Chroma run here)`;
const notBuilt = (what: string) => `${what}: not built in this service yet`;

export const UNSUPPORTED_COMPONENTS: Readonly<Record<string, string>> = {
  // Vector stores on hosted services.
  AstraDB: vectorStore('DataStax Astra DB'),
  // Local components of the current starters.
  FileDescriptionGeneratorComponent: notBuilt('OpenDsStar\'s docling ingestion (documents converted by docling, then described by a model) for the Structured Data Analysis Agent'),
  FileContentRetriever: notBuilt('OpenDsStar\'s file reading (docling-converted contents kept between runs, tables parsed from them) for the Structured Data Analysis Agent'),
  OpenDsStarAgent: 'runs Python code that a model writes, and this service never runs Python',
};

/** Why a node of this type cannot run here, when the type is one we know of; undefined otherwise. */
export function unsupportedReason(type: string): string | undefined {
  return Object.hasOwn(UNSUPPORTED_COMPONENTS, type) && !findComponent(type) ? UNSUPPORTED_COMPONENTS[type] : undefined;
}
