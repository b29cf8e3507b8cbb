/**
 * URL: fetches web pages (and, with a depth above 1, the pages they link to) as text or raw HTML: a table of pages
 * and a Message of their texts.
 */
import { createMessage } from '../../values/message.js';
import { createTable } from '../../values/table.js';
import { ComponentError } from '../component.error.js';
import { defineComponent } from '../contract.js';
import { bool, choice, int, intRange, table, textList } from '../fields.js';
import { undici } from '../shared/heavy-modules.js';
import { headerMap, normalizeUrl } from '../shared/http-fetch.js';
import { crawl, type Page } from './crawl.js';

const MAX_PAGES = 100;

export const urlComponent = defineComponent({
  type: 'URLComponent',
  aliases: ['URL'],
  version: 1,
  displayName: 'URL',
  description: 'Fetch content from one or more web pages, following links recursively.',
  category: 'data',
  icon: 'layout-template',
  fields: {
    urls: textList({ displayName: 'URLs', info: "Enter one or more URLs to crawl recursively, by clicking the '+' button.", placeholder: 'Enter a URL...', toolMode: true }),
    max_depth: intRange({
      displayName: 'Depth',
      info: "Controls how many 'clicks' away from the initial page the crawler will go: depth 1 is only the initial page, depth 2 adds the pages it links to, and so on.",
      value: 1,
      min: 1,
      max: 5,
    }),
    prevent_outside: bool({ displayName: 'Prevent Outside', info: 'If enabled, only crawls URLs within the same domain as the root URL.', value: true, advanced: true }),
    format: choice({ displayName: 'Output Format', info: "Output Format. Use 'Text' to extract the text from the HTML or 'HTML' for the raw HTML content.", options: ['Text', 'HTML'], advanced: true }),
    timeout: int({ displayName: 'Timeout', info: 'Timeout for the request in seconds.', value: 30, min: 0, advanced: true }),
    headers: table({ displayName: 'Headers', info: 'The headers to send with the request', value: [{ key: 'User-Agent', value: 'Langflow/1.0' }], inputTypes: ['DataFrame'], advanced: true }),
    continue_on_failure: bool({ displayName: 'Continue on Failure', info: 'If enabled, continues crawling even if some requests fail.', value: true, advanced: true }),
    check_response_status: bool({ displayName: 'Check Response Status', info: 'If enabled, checks the response status of the request.', advanced: true }),
  },
  outputs: [
    { name: 'page_results', displayName: 'Extracted Pages', types: ['DataFrame'], method: 'fetch_content' },
    { name: 'raw_results', displayName: 'Raw Content', types: ['Message'], method: 'fetch_content_as_message' },
  ],
  heavyModules: () => [undici],
  async run(inputs, ctx) {
    const roots = [...new Set(inputs.urls.filter((u) => u.trim() !== '').map((u) => normalizeUrl(u, 'Field "URLs" (urls)')))];
    if (roots.length === 0) throw new ComponentError('Field "URLs" (urls): no URL given');
    const options = {
      maxDepth: inputs.max_depth,
      preventOutside: inputs.prevent_outside,
      html: inputs.format === 'HTML',
      timeoutSeconds: inputs.timeout,
      headers: headerMap(inputs.headers),
      checkStatus: inputs.check_response_status,
      continueOnFailure: inputs.continue_on_failure,
      signal: ctx.signal,
      network: ctx.network,
      maxPages: MAX_PAGES,
    };
    const failures: string[] = [];
    const pages: Page[] = [];
    for (const root of roots) pages.push(...(await crawl(root, { ...options, maxPages: MAX_PAGES - pages.length }, failures)));
    if (pages.length === 0) throw new ComponentError(`No page could be loaded: ${failures.join('; ') || 'nothing was found'}`);
    const outputs: Record<string, unknown> = {};
    if (ctx.requested.has('page_results')) outputs.page_results = createTable(pages.map((p) => ({ ...p })));
    if (ctx.requested.has('raw_results')) outputs.raw_results = createMessage({ text: pages.map((p) => p.text).join('\n\n') });
    return outputs;
  },
});
