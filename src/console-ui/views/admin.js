/** Namespaces (list, create, delete) and each namespace's API keys (list, mint, revoke). */
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.js';
import { ErrorLine, Field, html, useAction } from '../html.js';

const PERMISSIONS = ['read', 'write', 'delete'];

export function Admin() {
  const [list, setList] = useState([]);
  const [name, setName] = useState('');
  const [selected, setSelected] = useState(null);
  const [error, guard] = useAction();
  const load = guard(async () => setList((await api('GET', '/v1/namespace', { query: { limit: 100 } })).data));
  useEffect(() => void load(), []);
  const create = guard(async () => {
    await api('POST', '/v1/namespace', { body: { name } });
    setName('');
    await load();
  });
  const remove = (ns) =>
    guard(async () => {
      if (!confirm(`Delete namespace ${ns.name} and everything in it?`)) return;
      await api('DELETE', `/v1/namespace/${ns.objectId}`);
      if (selected?.objectId === ns.objectId) setSelected(null);
      await load();
    });
  return html`<section aria-labelledby="admin-title">
    <h2 id="admin-title">Namespaces and API keys</h2>
    <form class="filters" onSubmit=${create} aria-label="New namespace">
      <${Field}
        id="ns-name"
        label="New namespace name"
        required
        value=${name}
        onInput=${(e) => setName(e.target.value)}
      />
      <button type="submit">Create namespace</button>
    </form>
    <${ErrorLine} error=${error} />
    <table>
      <caption>
        Namespaces of your organization
      </caption>
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Id</th>
          <th scope="col">Memories</th>
          <th scope="col">Actions</th>
        </tr>
      </thead>
      <tbody>
        ${list.map(
          (ns) =>
            html`<tr key=${ns.objectId}>
              <td>${ns.name}</td>
              <td><code>${ns.objectId}</code></td>
              <td>${ns.memoriesCount ?? ''}</td>
              <td>
                <button type="button" onClick=${() => setSelected(ns)}>Keys</button>
                <button type="button" class="danger" onClick=${remove(ns)}>Delete</button>
              </td>
            </tr>`,
        )}
      </tbody>
    </table>
    ${selected && html`<${Keys} ns=${selected} key=${selected.objectId} />`}
  </section>`;
}

function Keys({ ns }) {
  const base = `/v1/namespace/${ns.objectId}/api-keys`;
  const [keys, setKeys] = useState([]);
  const [form, setForm] = useState({ name: '', permissions: ['read'] });
  const [minted, setMinted] = useState(null);
  const [error, run] = useAction();
  const load = run(async () => setKeys((await api('GET', base)).data));
  useEffect(() => void load(), [base]);
  const mint = run(async () => {
    setMinted((await api('POST', base, { body: form })).data.key);
    await load();
  });
  const revoke = (k) => run(async () => (await api('DELETE', `${base}/${k.objectId}`), await load()));
  const toggle = (p) => (e) =>
    setForm({
      ...form,
      permissions: e.target.checked ? [...form.permissions, p] : form.permissions.filter((x) => x !== p),
    });
  return html`<div class="card" aria-labelledby="keys-title">
    <h3 id="keys-title">API keys of ${ns.name}</h3>
    <form onSubmit=${mint} aria-label="New API key">
      <${Field}
        id="k-name"
        label="Key name"
        required
        value=${form.name}
        onInput=${(e) => setForm({ ...form, name: e.target.value })}
      />
      <fieldset>
        <legend>Permissions</legend>
        ${PERMISSIONS.map(
          (p) =>
            html`<span class="check">
              <input id=${`k-${p}`} type="checkbox" checked=${form.permissions.includes(p)} onChange=${toggle(p)} />
              <label for=${`k-${p}`}>${p}</label>
            </span>`,
        )}
      </fieldset>
      <button type="submit">Create key</button>
    </form>
    ${minted && html`<p role="status">New key (shown once): <code class="secret">${minted}</code></p>`}
    <${ErrorLine} error=${error} />
    <ul>
      ${keys.map(
        (k) =>
          html`<li key=${k.objectId}>
            ${k.name} <code>${k.key_prefix}…</code> ${k.permissions.join(', ')} ${k.is_active ? '' : '(revoked)'}
            ${k.is_active && html`<button type="button" class="danger" onClick=${revoke(k)}>Revoke</button>`}
          </li>`,
      )}
    </ul>
  </div>`;
}
