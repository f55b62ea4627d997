/** Format detection: content first, then name, declared type and a look at the text. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Document, Packer, Paragraph } from 'docx';
import JSZip from 'jszip';
import { detectFormat, SUPPORTED_FORMATS } from './index.ts';
import { makePdf, textImage } from './test-files.ts';

const utf8 = (s: string) => new TextEncoder().encode(s);

/** Bytes that are no format and not text: a fixed pseudo-random sequence. */
function noise(length: number): Uint8Array {
  const out = new Uint8Array(length);
  let x = 0x2545f491;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

describe('detectFormat', () => {
  it('knows PDF, DOCX and images by their content, whatever the name says', async () => {
    const pdf = await makePdf((doc) => doc.text('hello'));
    assert.deepEqual(await detectFormat(pdf, 'notes.txt', 'text/plain'), { format: 'pdf', mime: 'application/pdf' });
    const docx = new Uint8Array(
      await Packer.toBuffer(new Document({ sections: [{ children: [new Paragraph('x')] }] })),
    );
    assert.deepEqual(await detectFormat(docx, 'upload'), {
      format: 'docx',
      mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    });
    assert.deepEqual(await detectFormat(await textImage(['x']), 'photo.md'), { format: 'image', mime: 'image/png' });
    assert.deepEqual(await detectFormat(await textImage(['x'], 'jpeg'), 'x.pdf'), {
      format: 'image',
      mime: 'image/jpeg',
    });
  });

  it('refuses other binary formats and binary garbage', async () => {
    const zip = new JSZip();
    zip.file('data/readme.xml', '<a/>');
    const plainZip = new Uint8Array(await zip.generateAsync({ type: 'uint8array' }));
    assert.equal(await detectFormat(plainZip, 'report.docx'), null); // a zip, but no word/document.xml
    assert.equal(await detectFormat(noise(4096), 'x.txt'), null);
    assert.equal(await detectFormat(noise(4096), 'x.txt', 'text/plain'), null);
    const gif = utf8('GIF89a\u0001\u0000\u0001\u0000\u0000\u0000\u0000;');
    assert.equal(await detectFormat(gif, 'anim.gif'), null);
  });

  it('tells the text formats apart by extension, then declared type, then the text', async () => {
    const md = utf8('# Title\n\nSome *text*.');
    assert.deepEqual(await detectFormat(md, 'README.md'), { format: 'markdown', mime: 'text/markdown' });
    assert.deepEqual(await detectFormat(md, 'README.markdown', 'text/plain'), {
      format: 'markdown',
      mime: 'text/markdown',
    });
    assert.deepEqual(await detectFormat(md, 'upload', 'text/markdown; charset=utf-8'), {
      format: 'markdown',
      mime: 'text/markdown',
    });
    assert.deepEqual(await detectFormat(md, 'notes.txt'), { format: 'text', mime: 'text/plain' });
    const page = utf8('<p>Hello</p>');
    assert.deepEqual(await detectFormat(page, 'index.htm'), { format: 'html', mime: 'text/html' });
    assert.deepEqual(await detectFormat(page, 'blob', 'application/xhtml+xml'), { format: 'html', mime: 'text/html' });
    assert.deepEqual(await detectFormat(utf8('  <!DOCTYPE html><html><body>x</body></html>'), 'download'), {
      format: 'html',
      mime: 'text/html',
    });
    const xhtml = utf8('<?xml version="1.0"?>\n<html xmlns="http://www.w3.org/1999/xhtml"><body>x</body></html>');
    assert.deepEqual(await detectFormat(xhtml, 'page'), { format: 'html', mime: 'text/html' });
    assert.deepEqual(await detectFormat(utf8('just words'), 'LICENSE', 'application/octet-stream'), {
      format: 'text',
      mime: 'text/plain',
    });
  });

  it('accepts UTF-16 with a byte order mark, and text that happens to start like a signature', async () => {
    const utf16 = new Uint8Array([
      0xff,
      0xfe,
      ...new Uint8Array(new Uint16Array([...'héllo'].map((c) => c.charCodeAt(0))).buffer),
    ]);
    assert.deepEqual(await detectFormat(utf16, 'a.txt'), { format: 'text', mime: 'text/plain' });
    // "ID3" is the MP3 tag signature; a text file says it is text and decodes as text.
    assert.deepEqual(await detectFormat(utf8('ID3 tags explained'), 'id3.txt'), { format: 'text', mime: 'text/plain' });
    assert.equal(await detectFormat(utf8('ID3 tags explained'), 'song'), null);
  });

  it('lists every supported format with its MIME type and extensions', () => {
    const formats = new Set(SUPPORTED_FORMATS.map((f) => f.format));
    assert.deepEqual([...formats].sort(), ['docx', 'html', 'image', 'markdown', 'pdf', 'text']);
    for (const f of SUPPORTED_FORMATS) {
      assert.match(f.mime, /^[a-z]+\/[\w.+-]+$/);
      assert.ok(f.extensions.length > 0);
    }
  });
});
