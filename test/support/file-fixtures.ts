/**
 * Tiny documents of every format File reads, written at run time: PDF by hand (one page of Helvetica text, with a
 * correct xref table) and DOCX as the three-part ZIP Word needs, so no binary fixture is committed.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { strToU8, zipSync } from 'fflate';

export function pdfBytes(lines: string[]): Buffer {
  const escape = (s: string) => s.replace(/[\\()]/g, (c) => `\\${c}`);
  const content = `BT /F1 12 Tf 72 720 Td ${lines.map((line, i) => `${i ? '0 -16 Td ' : ''}(${escape(line)}) Tj`).join(' ')} ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

export function docxBytes(paragraphs: string[]): Uint8Array {
  const xmlEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const body = paragraphs.map((p) => `<w:p><w:r><w:t xml:space="preserve">${xmlEscape(p)}</w:t></w:r></w:p>`).join('');
  return zipSync({
    '[Content_Types].xml': strToU8(
      '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>' +
        '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    ),
    '_rels/.rels': strToU8(
      '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
    ),
    'word/document.xml': strToU8(`<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}</w:body></w:document>`),
  });
}

/** One file of each format in `dir`, each saying which format it is; returns the file names by extension. */
export function writeFixtures(dir: string): Record<string, string> {
  const files: Record<string, string | Uint8Array> = {
    'notes.txt': 'Plain text notes.\nSecond line.',
    'readme.md': '# Title\n\nSome *markdown* text.',
    'people.csv': 'name,age\nAda,36\nAlan,41\n',
    'config.json': '{"service": "flowsvc", "port": 7860, "tags": ["a", "b"]}',
    'page.html': '<!doctype html><html><head><title>Page</title><style>p{color:red}</style><script>ignored()</script></head><body><h1>Heading</h1><p>Para &amp; text</p></body></html>',
    'report.pdf': pdfBytes(['Quarterly report (PDF)', 'Revenue grew']),
    'letter.docx': docxBytes(['Dear reader,', 'This is a DOCX letter.']),
  };
  const names: Record<string, string> = {};
  for (const [name, content] of Object.entries(files)) {
    writeFileSync(join(dir, name), content);
    names[name.split('.').pop()!] = name;
  }
  return names;
}
