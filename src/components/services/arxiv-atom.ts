/**
 * arXiv's Atom feed as rows, field for field as Langflow's arXiv component reads it (id, title, summary, dates,
 * authors, links, comment, journal_ref, categories). @xmldom/xmldom parses it: it resolves no external entities,
 * so a feed cannot make the service read a file or call a URL.
 */
import { DOMParser } from '@xmldom/xmldom';
import { ServiceError } from './service-failure.js';

const ATOM = 'http://www.w3.org/2005/Atom';
const ARXIV = 'http://arxiv.org/schemas/atom';

export function papersOf(feed: string): Record<string, unknown>[] {
  let failure: string | undefined;
  const doc = new DOMParser({ errorHandler: { warning: () => {}, error: () => {}, fatalError: (message: unknown) => void (failure = String(message)) } }).parseFromString(feed, 'text/xml');
  const root = doc.documentElement;
  if (failure || !root || root.localName !== 'feed') throw new ServiceError(`arXiv answered with something that is not an Atom feed${failure ? `: ${failure}` : ''}`);
  return children(root, ATOM, 'entry').map((entry) => ({
    id: textOf(entry, ATOM, 'id'),
    title: textOf(entry, ATOM, 'title'),
    summary: textOf(entry, ATOM, 'summary'),
    published: textOf(entry, ATOM, 'published'),
    updated: textOf(entry, ATOM, 'updated'),
    authors: children(entry, ATOM, 'author').map((author) => textOf(author, ATOM, 'name')),
    arxiv_url: linkOf(entry, 'alternate'),
    pdf_url: linkOf(entry, 'related'),
    comment: textOf(entry, ARXIV, 'comment'),
    journal_ref: textOf(entry, ARXIV, 'journal_ref'),
    primary_category: children(entry, ARXIV, 'primary_category')[0]?.getAttribute('term') ?? null,
    categories: children(entry, ATOM, 'category').map((category) => category.getAttribute('term')),
  }));
}

/** Direct children only, as ElementTree's find does. */
function children(parent: Element, ns: string, name: string): Element[] {
  const found: Element[] = [];
  for (let node = parent.firstChild; node; node = node.nextSibling) {
    const element = node as Element;
    if (node.nodeType === 1 && element.namespaceURI === ns && element.localName === name) found.push(element);
  }
  return found;
}

function textOf(parent: Element, ns: string, name: string): string | null {
  const text = children(parent, ns, name)[0]?.textContent?.trim();
  return text ? text : null;
}

function linkOf(entry: Element, rel: string): string | null {
  return children(entry, ATOM, 'link').find((link) => link.getAttribute('rel') === rel)?.getAttribute('href') ?? null;
}
