/**
 * Batches, documents and sessions with their status as it changes, each pushed by the server
 * over the status WebSocket until it settles (docs/realtime.md): no polling.
 */
import { useEffect, useState } from 'preact/hooks';
import { api, watchStatus } from '../api.js';
import { ErrorLine, Field, html } from '../html.js';

export function Jobs() {
  return html`<section aria-labelledby="jobs-title">
    <h2 id="jobs-title">Batches, documents and sessions</h2>
    <div class="columns">
      <${Batch} />
      <${Document} />
      <${Session} />
    </div>
  </section>`;
}

/** The latest status pushed for `kind` `id` (null: none yet), or the refusal. */
function useWatch(kind, id) {
  const [state, setState] = useState({ value: null, error: null });
  useEffect(() => {
    setState({ value: null, error: null });
    if (!id) return undefined;
    return watchStatus(
      kind,
      id,
      (value) => setState({ value, error: null }),
      (error) => setState({ value: null, error }),
    );
  }, [kind, id]);
  return state;
}

function Batch() {
  const [text, setText] = useState('');
  const [user, setUser] = useState('');
  const [batch, setBatch] = useState(null);
  const [status, setStatus] = useState(null);
  const [error, setError] = useState(null);

  useEffect(() => (batch ? watchStatus('batch', batch, setStatus) : undefined), [batch]);
  const submit = async (e) => {
    e.preventDefault();
    setError(null);
    setStatus(null);
    const lines = text
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
    try {
      const r = await api('POST', '/v1/memory/batch', {
        body: { memories: lines.map((content) => ({ content, external_user_id: user || undefined })) },
      });
      setBatch(r.batch_id);
    } catch (err) {
      setError(err);
    }
  };
  return html`<form class="card" onSubmit=${submit} aria-labelledby="batch-title">
    <h3 id="batch-title">Batch</h3>
    <div class="field">
      <label for="b-lines">Memories, one per line</label>
      <textarea id="b-lines" rows="5" required value=${text} onInput=${(e) => setText(e.target.value)}></textarea>
    </div>
    <${Field} id="b-user" label="External user id" value=${user} onInput=${(e) => setUser(e.target.value)} />
    <button type="submit">Submit batch</button>
    <${ErrorLine} error=${error} />
    ${batch && html`<${BatchStatus} id=${batch} status=${status} />`}
  </form>`;
}

function BatchStatus({ id, status }) {
  const state = status?.processing_status;
  const failed = status?.failures.length ? `, ${status.failures.length} failed` : '';
  return html`<div role="status" aria-live="polite" class="status" data-batch-id=${id}>
    <p>Batch <code>${id}</code>: <strong data-status=${state ?? 'waiting'}>${state ?? 'waiting for the server'}</strong></p>
    ${status && html`<progress max="100" value=${status.progress.percent} aria-label="Batch progress"></progress>`}
    ${status && html`<p>${`${status.progress.done} of ${status.progress.total} done${failed}`}</p>`}
  </div>`;
}

function Document() {
  const [file, setFile] = useState(null);
  const [user, setUser] = useState('');
  const [upload, setUpload] = useState(null);
  const [error, setError] = useState(null);
  const live = useWatch('document', upload);
  const submit = async (e) => {
    e.preventDefault();
    setError(null);
    const form = new FormData();
    if (user) form.append('external_user_id', user);
    form.append('file', file, file.name);
    try {
      const r = await api('POST', '/v1/document', { form });
      setUpload(r.document_status.upload_id);
    } catch (err) {
      setError(err);
    }
  };
  const s = live.value;
  return html`<form class="card" onSubmit=${submit} aria-labelledby="doc-title">
    <h3 id="doc-title">Document</h3>
    <div class="field">
      <label for="d-file">File (PDF, Word, HTML, Markdown, text)</label>
      <input id="d-file" type="file" required onChange=${(e) => setFile(e.target.files[0] ?? null)} />
    </div>
    <${Field} id="d-user" label="External user id" value=${user} onInput=${(e) => setUser(e.target.value)} />
    <button type="submit">Upload</button>
    <${ErrorLine} error=${error ?? live.error} />
    ${
      upload &&
      html`<div role="status" aria-live="polite" class="status" data-upload-id=${upload}>
        <p>Upload <code>${upload}</code>: <strong data-document-status=${s?.status ?? 'waiting'}>${s?.status ?? 'waiting'}</strong></p>
        ${s?.chunks && html`<p>${s.chunks.stored} of ${s.chunks.total} chunks stored</p>`}
      </div>`
    }
  </form>`;
}

/** "3 messages; 2 completed, 1 queued" */
const sessionLine = (st) =>
  `${st.message_count} messages; ${Object.entries(st.processing)
    .map(([k, n]) => `${n} ${k}`)
    .join(', ')}`;

function Session() {
  const [id, setId] = useState('');
  const [shown, setShown] = useState(null);
  const [history, setHistory] = useState({ value: null, error: null });
  const live = useWatch('session', shown);
  useEffect(() => setHistory({ value: null, error: null }), [shown]);
  // Each pushed status may come with new or newly processed messages: the page is read again.
  useEffect(() => {
    if (!live.value) return;
    let stop = false;
    api('GET', `/v1/messages/sessions/${encodeURIComponent(shown)}`, { query: { limit: 20 } }).then(
      (value) => !stop && setHistory({ value, error: null }),
      (error) => !stop && setHistory({ value: null, error }),
    );
    return () => (stop = true);
  }, [live.value]);
  const v = live.value && history.value ? { status: live.value, history: history.value } : null;
  return html`<form
    class="card"
    onSubmit=${(e) => {
      e.preventDefault();
      setShown(id.trim());
    }}
    aria-labelledby="session-title"
  >
    <h3 id="session-title">Session</h3>
    <${Field} id="s-id" label="Session id" required value=${id} onInput=${(e) => setId(e.target.value)} />
    <button type="submit">Show session</button>
    <${ErrorLine} error=${live.error ?? history.error} />
    ${
      v &&
      html`<div role="status" aria-live="polite" class="status">
        <p>${sessionLine(v.status)}</p>
        <ol class="messages">
          ${v.history.messages.map((m) => html`<li><strong>${m.role}:</strong> ${m.content}</li>`)}
        </ol>
      </div>`
    }
  </form>`;
}
