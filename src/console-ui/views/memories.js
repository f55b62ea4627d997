/** Browse memories with GET /v1/memory's filters (newest first, paged by cursor) and add one. */
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.js';
import { ErrorLine, Field, html } from '../html.js';

const FILTERS = [
  ['external_user_id', 'External user id', 'text'],
  ['namespace_id', 'Namespace id', 'text'],
  ['metadata', 'Metadata contains (JSON)', 'text'],
  ['created_after', 'Created after', 'date'],
  ['created_before', 'Created before', 'date'],
];

export function Memories() {
  const [filter, setFilter] = useState({});
  const [page, setPage] = useState({ memories: [], next: null });
  const [error, setError] = useState(null);

  const load = async (cursor) => {
    setError(null);
    try {
      const r = await api('GET', '/v1/memory', { query: { ...filter, limit: 20, cursor } });
      setPage((p) => ({
        memories: cursor ? [...p.memories, ...r.data.memories] : r.data.memories,
        next: r.has_more ? r.next_cursor : null,
      }));
    } catch (err) {
      setError(err);
    }
  };
  useEffect(() => void load(), []);

  const set = (name) => (e) => setFilter({ ...filter, [name]: e.target.value });
  return html`<section aria-labelledby="memories-title">
    <h2 id="memories-title">Memories</h2>
    <${AddMemory} onAdded=${() => load()} />
    <form
      class="filters"
      aria-label="Filter memories"
      onSubmit=${(e) => {
        e.preventDefault();
        void load();
      }}
    >
      ${FILTERS.map(
        ([name, label, type]) =>
          html`<${Field}
            id=${`f-${name}`}
            label=${label}
            type=${type}
            value=${filter[name] ?? ''}
            onInput=${set(name)}
          />`,
      )}
      <button type="submit">Apply filters</button>
    </form>
    <${ErrorLine} error=${error} />
    <table class="memories">
      <caption>
        ${page.memories.length} memories shown, newest first
      </caption>
      <thead>
        <tr>
          <th scope="col">Content</th>
          <th scope="col">User</th>
          <th scope="col">Namespace</th>
          <th scope="col">Created</th>
          <th scope="col">Status</th>
        </tr>
      </thead>
      <tbody>
        ${page.memories.map(
          (m) =>
            html`<tr key=${m.id} data-memory-id=${m.id}>
              <td>${m.content}</td>
              <td>${m.external_user_id ?? m.user_id}</td>
              <td>${m.namespace_id ?? '—'}</td>
              <td><time datetime=${m.createdAt}>${new Date(m.createdAt).toLocaleString()}</time></td>
              <td>${m.status ?? ''}</td>
            </tr>`,
        )}
      </tbody>
    </table>
    ${page.next && html`<button type="button" onClick=${() => load(page.next)}>Load more</button>`}
  </section>`;
}

function AddMemory({ onAdded }) {
  const [form, setForm] = useState({ content: '', external_user_id: '' });
  const [error, setError] = useState(null);
  const [added, setAdded] = useState(null);
  const submit = async (e) => {
    e.preventDefault();
    setError(null);
    try {
      const r = await api('POST', '/v1/memory', {
        body: { content: form.content, external_user_id: form.external_user_id || undefined },
      });
      setAdded(r.data?.[0]?.memoryId ?? null);
      setForm({ ...form, content: '' });
      onAdded();
    } catch (err) {
      setError(err);
    }
  };
  return html`<form class="add" onSubmit=${submit} aria-labelledby="add-title">
    <h3 id="add-title">Add a memory</h3>
    <div class="field">
      <label for="add-content">Content</label>
      <textarea
        id="add-content"
        required
        rows="3"
        value=${form.content}
        onInput=${(e) => setForm({ ...form, content: e.target.value })}
      ></textarea>
    </div>
    <${Field}
      id="add-user"
      label="External user id"
      value=${form.external_user_id}
      onInput=${(e) => setForm({ ...form, external_user_id: e.target.value })}
    />
    <button type="submit">Add memory</button>
    ${added && html`<p role="status">Added memory <code>${added}</code>.</p>`}
    <${ErrorLine} error=${error} />
  </form>`;
}
