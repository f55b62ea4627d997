/** HTML: the article without its boilerplate, headings and structure kept; fragments and short pages. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DocumentParseError, parseDocument, type ParsedDocument } from './index.ts';

const utf8 = (s: string) => new TextEncoder().encode(s);
const parse = (html: string) => parseDocument(utf8(html), 'html', { ocr: null, maxPages: 10 });
const texts = (doc: ParsedDocument) => doc.blocks.map((b) => b.text);

const ARTICLE = `<!doctype html>
<html><head><title>Growing Tomatoes | Garden Weekly</title><style>p { color: red }</style></head>
<body>
  <header class="site-header"><a href="/">Garden Weekly</a></header>
  <nav><ul><li><a href="/">Home</a></li><li><a href="/news">News</a></li><li><a href="/shop">Shop</a></li></ul></nav>
  <main><article>
    <h1>Growing Tomatoes</h1>
    <p>Tomatoes need at least six hours of direct sunlight a day, well-drained soil that is rich in organic
    matter, and regular watering at the base of the plant rather than on the leaves.</p>
    <h2>Planting</h2>
    <p>Plant seedlings deeply: the buried stem grows roots, which gives a sturdier plant that copes better with
    dry spells and strong winds later in the <em>summer</em> season.</p>
    <ul><li>Space plants sixty centimetres apart.</li><li>Stake them early.</li></ul>
    <h3>Soil</h3>
    <table><thead><tr><th>Soil</th><th>pH</th></tr></thead><tbody><tr><td>Loam</td><td>6.5</td></tr></tbody></table>
    <pre>water = 2 litres
weekly = true</pre>
    <script>trackPageView();</script>
  </article></main>
  <footer><p>Copyright 2024 Garden Weekly. All rights reserved.</p><a href="/privacy">Privacy</a></footer>
</body></html>`;

describe('HTML', () => {
  it('keeps the article with its headings, lists, table rows and code, and drops the boilerplate', async () => {
    const doc = await parse(ARTICLE);
    assert.equal(doc.format, 'html');
    assert.equal(doc.totalPages, 1);
    assert.equal(doc.title, 'Growing Tomatoes | Garden Weekly');
    assert.deepEqual(
      doc.blocks.filter((b) => b.kind === 'heading').map((b) => [b.level, b.text]),
      [
        [1, 'Growing Tomatoes'], // Readability would drop it (it repeats the title); it is the top section
        [2, 'Planting'],
        [3, 'Soil'],
      ],
    );
    const all = texts(doc);
    assert.ok(all.includes('Space plants sixty centimetres apart.'));
    assert.ok(all.includes('Stake them early.'));
    assert.ok(all.includes('Soil | pH'));
    assert.ok(all.includes('Loam | 6.5'));
    assert.ok(all.includes('water = 2 litres\nweekly = true'));
    assert.ok(
      all.includes(
        'Plant seedlings deeply: the buried stem grows roots, which gives a sturdier plant that copes better ' +
          'with dry spells and strong winds later in the summer season.',
      ),
    );
    const joined = all.join('\n');
    for (const boilerplate of ['Home', 'Shop', 'Copyright', 'Privacy', 'trackPageView', 'color: red']) {
      assert.ok(!joined.includes(boilerplate), `${boilerplate} leaked into ${joined}`);
    }
    assert.ok(doc.blocks.every((b) => b.page === 1));
  });

  it('uses the page body when there is no article to find', async () => {
    const doc = await parse(
      '<html><head><title>Note</title></head><body><nav>Menu</nav><h1>Short</h1><p>One line.</p></body></html>',
    );
    assert.deepEqual(
      doc.blocks.map((b) => [b.kind, b.text]),
      [
        ['heading', 'Short'],
        ['paragraph', 'One line.'],
      ],
    );
    assert.equal(doc.title, 'Note');
  });

  it('reads fragments without <html> or <body>, line breaks included', async () => {
    const doc = await parse('<h2>Fragment</h2><p>first<br>second</p>loose text');
    assert.deepEqual(
      doc.blocks.map((b) => [b.kind, b.level, b.text]),
      [
        ['heading', 2, 'Fragment'],
        ['paragraph', undefined, 'first\nsecond'],
        ['paragraph', undefined, 'loose text'],
      ],
    );
    assert.equal(doc.title, 'Fragment');
  });

  it('refuses a page without text as empty', async () => {
    const err = await parse('<html><body><script>x()</script><img src="a.png"></body></html>').catch((e) => e);
    assert.ok(err instanceof DocumentParseError);
    assert.equal(err.reason, 'empty');
  });
});
