/** arXiv's export API as the arXiv component calls it: GET /api/query answering an Atom feed of `max_results` papers. */
import { startServiceStandIn, type ServiceStandIn } from './service-stand-in.js';

const entry = (i: number, query: string) => `
  <entry>
    <id>http://arxiv.org/abs/2401.0000${i}v1</id>
    <updated>2024-01-0${i}T00:00:00Z</updated>
    <published>2024-01-0${i}T00:00:00Z</published>
    <title>Paper ${i} on ${query}</title>
    <summary>  An abstract about ${query}, number ${i}.  </summary>
    <author><name>Ada Lovelace</name></author>
    <author><name>Alan Turing</name></author>
    <arxiv:comment xmlns:arxiv="http://arxiv.org/schemas/atom">12 pages</arxiv:comment>
    <link href="http://arxiv.org/abs/2401.0000${i}v1" rel="alternate" type="text/html"/>
    <link title="pdf" href="http://arxiv.org/pdf/2401.0000${i}v1" rel="related" type="application/pdf"/>
    <arxiv:primary_category xmlns:arxiv="http://arxiv.org/schemas/atom" term="cs.AI" scheme="http://arxiv.org/schemas/atom"/>
    <category term="cs.AI" scheme="http://arxiv.org/schemas/atom"/>
    <category term="cs.LG" scheme="http://arxiv.org/schemas/atom"/>
  </entry>`;

export async function startArxivStandIn(): Promise<ServiceStandIn> {
  return startServiceStandIn({
    'GET /api/query': (req, res) => {
      const query = req.query.get('search_query') ?? '';
      const count = Math.min(Number(req.query.get('max_results') ?? 10), 5);
      const entries = Array.from({ length: count }, (_, i) => entry(i + 1, query.replace(/[<&]/g, ''))).join('');
      res.writeHead(200, { 'content-type': 'application/atom+xml' }).end(`<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom"><title>arXiv Query</title>${entries}
</feed>`);
    },
  });
}
