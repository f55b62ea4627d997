/**
 * The GraphQL playground served at GET /v1/graphql: one self-contained page (no CDN, no
 * external file; it works offline). Mercurius' GraphiQL loads React and GraphiQL from unpkg.com
 * at run time (its static/main.js) and those packages are not installed, so this small page
 * stands in: a credential field, the query and its variables, Run, the answer, and the schema
 * read by introspection.
 */

/** The Content-Security-Policy of the page: only its own inline code, and requests to this server. */
export const PLAYGROUND_CSP =
  "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; " +
  "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const EXAMPLE = `query Recent($first: Int) {
  memories(first: $first) {
    items { id content createdAt }
    nextCursor
  }
}`;

const SCRIPT = String.raw`
const $ = (id) => document.getElementById(id);
const ENDPOINT = location.pathname;
$('cred').value = sessionStorage.getItem('engram.cred') || '';
$('kind').value = sessionStorage.getItem('engram.kind') || 'x-api-key';
async function post(body) {
  const cred = $('cred').value.trim();
  const kind = $('kind').value;
  sessionStorage.setItem('engram.cred', cred);
  sessionStorage.setItem('engram.kind', kind);
  const headers = { 'content-type': 'application/json' };
  if (cred) headers[kind] = kind === 'authorization' ? 'Bearer ' + cred : cred;
  const res = await fetch(ENDPOINT, { method: 'POST', headers, body: JSON.stringify(body) });
  return { status: res.status, json: await res.json().catch(() => null) };
}
async function run() {
  let variables;
  try {
    variables = $('vars').value.trim() ? JSON.parse($('vars').value) : undefined;
  } catch (e) {
    $('out').textContent = 'Variables are not JSON: ' + e.message;
    return;
  }
  $('out').textContent = '…';
  const started = performance.now();
  const r = await post({ query: $('query').value, variables });
  $('status').textContent = 'HTTP ' + r.status + ' in ' + Math.round(performance.now() - started) + ' ms';
  $('out').textContent = JSON.stringify(r.json, null, 2);
}
const typeRef = (t) =>
  t.kind === 'NON_NULL' ? typeRef(t.ofType) + '!' : t.kind === 'LIST' ? '[' + typeRef(t.ofType) + ']' : t.name;
async function schema() {
  const q = '{ __schema { types { name kind description fields { name args { name type { ...T } } type { ...T } } ' +
    'inputFields { name type { ...T } } enumValues { name } } } } ' +
    'fragment T on __Type { kind name ofType { kind name ofType { kind name ofType { kind name } } } }';
  const r = await post({ query: q });
  if (!r.json || !r.json.data) { $('schema').textContent = JSON.stringify(r.json, null, 2); return; }
  const lines = [];
  const builtIn = ['String', 'Int', 'Float', 'Boolean', 'ID'];
  for (const t of r.json.data.__schema.types.filter((t) => !t.name.startsWith('__') && !builtIn.includes(t.name))) {
    if (t.description) lines.push('# ' + t.description.replace(/\n/g, ' '));
    if (t.kind === 'SCALAR') { lines.push('scalar ' + t.name, ''); continue; }
    if (t.kind === 'ENUM') {
      lines.push('enum ' + t.name + ' { ' + t.enumValues.map((v) => v.name).join(' ') + ' }', '');
      continue;
    }
    const fields = t.fields || t.inputFields || [];
    lines.push((t.kind === 'INPUT_OBJECT' ? 'input ' : 'type ') + t.name + ' {');
    for (const f of fields) {
      const args = f.args && f.args.length
        ? '(' + f.args.map((a) => a.name + ': ' + typeRef(a.type)).join(', ') + ')'
        : '';
      lines.push('  ' + f.name + args + ': ' + typeRef(f.type));
    }
    lines.push('}', '');
  }
  $('schema').textContent = lines.join('\n');
}
$('run').addEventListener('click', run);
$('load').addEventListener('click', schema);
document.addEventListener('keydown', (e) => { if ((e.ctrlKey || e.metaKey) && e.key === 'Enter') run(); });
`;

const STYLE = `
body { font: 14px system-ui, sans-serif; margin: 0; height: 100vh;
  display: grid; grid-template-columns: 1fr 1fr 0.8fr; }
section { display: flex; flex-direction: column; padding: 8px; gap: 6px; min-height: 0; border-right: 1px solid #ddd; }
textarea, pre { font: 13px ui-monospace, monospace; flex: 1; margin: 0; padding: 6px;
  border: 1px solid #ccc; overflow: auto; }
#vars { flex: 0 0 20%; } pre { background: #f7f7f7; white-space: pre-wrap; }
header { display: flex; gap: 6px; align-items: center; } input { flex: 1; } h1 { font-size: 15px; margin: 0; }
`;

/** The page; the endpoint it posts to is the path it was served from. */
export function playgroundHtml(): string {
  const escaped = EXAMPLE.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Engram GraphQL</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><style>${STYLE}</style></head>
<body>
<section>
  <header><h1>Engram GraphQL</h1>
    <select id="kind" aria-label="Credential">
      <option value="x-api-key">X-API-Key</option><option value="authorization">Bearer</option>
      <option value="x-session-token">X-Session-Token</option>
    </select>
    <input id="cred" type="password" placeholder="credential" autocomplete="off" aria-label="Credential value">
    <button id="run" title="Ctrl+Enter">Run</button></header>
  <textarea id="query" spellcheck="false" aria-label="Query">${escaped}</textarea>
  <textarea id="vars" spellcheck="false" aria-label="Variables (JSON)">{"first": 5}</textarea>
</section>
<section><header><span id="status">Answer</span></header><pre id="out"></pre></section>
<section><header><button id="load">Load schema</button></header><pre id="schema"></pre></section>
<script>${SCRIPT}</script>
</body></html>
`;
}
