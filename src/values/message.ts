/** Message: the chat value that flows along edges and is stored in a session's history (Langflow's Message). */

export interface MessageSource {
  id: string | null;
  display_name: string | null;
  source: string | null;
}

export interface MessageProperties {
  text_color?: string | null;
  background_color?: string | null;
  edited?: boolean;
  source: MessageSource;
  icon?: string | null;
  allow_markdown?: boolean;
  positive_feedback?: boolean | null;
  state?: 'partial' | 'complete';
  targets?: unknown[];
  /** Token usage of the model call that produced this message, when the provider reported it. */
  usage?: { prompt_tokens: number; completion_tokens: number; total_tokens: number } | null;
  [key: string]: unknown;
}

export interface ContentBlock {
  title: string;
  contents: Record<string, unknown>[];
  allow_markdown?: boolean;
  media_url?: string[] | null;
}

export interface MessageValue {
  kind: 'message';
  /** Set once stored. */
  id?: string;
  text: string;
  sender: string | null;
  sender_name: string | null;
  session_id: string | null;
  context_id?: string | null;
  flow_id: string | null;
  files: string[];
  /** ISO 8601, UTC. */
  timestamp: string;
  error: boolean;
  edit: boolean;
  category: string;
  properties: MessageProperties;
  content_blocks: ContentBlock[];
}

export function createMessage(fields: Partial<Omit<MessageValue, 'kind'>> & { text: string }): MessageValue {
  return {
    kind: 'message',
    sender: null,
    sender_name: null,
    session_id: null,
    flow_id: null,
    files: [],
    timestamp: new Date().toISOString(),
    error: false,
    edit: false,
    category: 'message',
    content_blocks: [],
    ...fields,
    properties: { source: { id: null, display_name: null, source: null }, ...fields.properties },
  };
}

export const isMessage = (value: unknown): value is MessageValue =>
  typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'message';
