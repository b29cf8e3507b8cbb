/**
 * Breadth-first fetching of pages from a root URL, down to `maxDepth` (1: the page itself; 2: also the pages it
 * links to; ...). With `preventOutside`, only URLs under the root are followed.
 */
import { ComponentError } from '../component.error.js';
import type { NetworkPolicy } from '../contract.js';
import { readHtml } from '../shared/html-text.js';
import { fetchWithin, isTextual } from '../shared/http-fetch.js';

export interface CrawlOptions {
  maxDepth: number;
  preventOutside: boolean;
  html: boolean;
  timeoutSeconds: number;
  headers: Record<string, string>;
  checkStatus: boolean;
  continueOnFailure: boolean;
  signal: AbortSignal;
  /** Whether private addresses may be crawled (a refused page is a failure like any other). */
  network: NetworkPolicy | undefined;
  /** Stops a crawl that would otherwise fetch a whole site. */
  maxPages: number;
}

export interface Page {
  text: string;
  url: string;
  title: string;
  description: string;
  content_type: string;
  language: string;
}

export async function crawl(root: string, options: CrawlOptions, failures: string[]): Promise<Page[]> {
  const pages: Page[] = [];
  const seen = new Set([withoutHash(root)]);
  let frontier = [root];
  for (let depth = 1; depth <= options.maxDepth && frontier.length > 0; depth++) {
    const next: string[] = [];
    for (const url of frontier) {
      if (pages.length >= options.maxPages) return pages;
      const fetched = await fetchPage(url, options, failures);
      if (!fetched) continue;
      pages.push(fetched.page);
      if (depth === options.maxDepth) continue;
      for (const link of fetched.links) {
        const target = resolveLink(link, url);
        if (!target || seen.has(target) || (options.preventOutside && !target.startsWith(root))) continue;
        seen.add(target);
        next.push(target);
      }
    }
    frontier = next;
  }
  return pages;
}

async function fetchPage(url: string, options: CrawlOptions, failures: string[]): Promise<{ page: Page; links: string[] } | undefined> {
  try {
    const response = await fetchWithin(url, { headers: options.headers }, options.timeoutSeconds, options.signal, options.network);
    if (options.checkStatus && (response.status < 200 || response.status >= 300)) throw new ComponentError(`Request to ${url} answered HTTP ${response.status}`);
    const contentType = response.headers.get('content-type') ?? '';
    if (!isTextual(contentType)) return { page: page(url, '', contentType), links: [] };
    const body = new TextDecoder('utf-8').decode(response.body);
    if (!/html/i.test(contentType) && !/^\s*</.test(body)) return { page: page(url, body, contentType), links: [] };
    const parsed = readHtml(body);
    return {
      page: { text: options.html ? body : parsed.text, url, title: parsed.title, description: parsed.description, content_type: contentType, language: parsed.language },
      links: parsed.links,
    };
  } catch (error) {
    if (options.signal.aborted || !options.continueOnFailure) throw error;
    failures.push(error instanceof Error ? error.message : String(error));
    return undefined;
  }
}

function page(url: string, text: string, contentType: string): Page {
  return { text, url, title: '', description: '', content_type: contentType, language: '' };
}

function resolveLink(href: string, base: string): string | undefined {
  try {
    const url = new URL(href, base);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    return withoutHash(url.href);
  } catch {
    return undefined;
  }
}

function withoutHash(url: string): string {
  const hash = url.indexOf('#');
  return hash === -1 ? url : url.slice(0, hash);
}
