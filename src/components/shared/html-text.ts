/** Readable text out of an HTML page (File's .html files, URL's Text format), plus what a crawler needs from it. */
import { parse, type HTMLElement } from 'node-html-parser';

export interface HtmlPage {
  text: string;
  title: string;
  description: string;
  language: string;
  /** `href`s of the page's links, as written. */
  links: string[];
}

export function readHtml(html: string): HtmlPage {
  const root = parseHtml(html);
  return {
    text: textOf(root),
    title: root.querySelector('title')?.text.trim() ?? '',
    description: root.querySelector('meta[name="description"]')?.getAttribute('content') ?? '',
    language: root.querySelector('html')?.getAttribute('lang') ?? '',
    links: root.querySelectorAll('a[href]').map((a) => a.getAttribute('href') ?? ''),
  };
}

export function htmlToText(html: string): string {
  return textOf(parseHtml(html));
}

function parseHtml(html: string): HTMLElement {
  // Text-free parts (scripts, styles) would otherwise read as prose; the doctype would read as text.
  const root = parse(html.replace(/<!doctype[^>]*>/gi, ''), { comment: false, blockTextElements: { script: false, style: false, noscript: false, pre: true } });
  for (const element of root.querySelectorAll('script,style,noscript,template,svg')) element.remove();
  return root;
}

function textOf(root: HTMLElement): string {
  return root.structuredText
    .replace(/\u00a0/g, ' ')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
