/**
 * The search playground: POST /v1/memory/search with a reranking provider and return_features,
 * so each result shows its scores — the final relevance, the cosine similarity, the provider's
 * score, and the per-signal features (BM25, dense, graph …) the ranker saw.
 */
import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { ErrorLine, Field, html } from '../html.js';

const PROVIDERS = [
  ['svc_max', 'svc_max: learned ranker over every feature'],
  ['svc_enhanced', 'svc_enhanced: graph-transform score added'],
  ['none', 'none: the fused first stage only'],
];
/** Features shown first, in this order; the others follow in a details list. */
const MAIN_FEATURES = ['first_stage', 'bm25', 'dense', 'dense2', 'graph'];
const fmt = (n) => (typeof n === 'number' ? n.toFixed(3) : '—');

export function Search() {
  const [q, setQ] = useState({ query: '', external_user_id: '', provider: 'svc_max', agentic: true });
  const [result, setResult] = useState(null);
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);

  const run = async (e) => {
    e.preventDefault();
    setError(null);
    setBusy(true);
    try {
      const r = await api('POST', '/v1/memory/search', {
        query: { max_memories: 10 },
        body: {
          query: q.query,
          external_user_id: q.external_user_id || undefined,
          enable_agentic_graph: q.agentic,
          reranking_config:
            q.provider === 'none'
              ? undefined
              : { reranking_enabled: true, reranking_provider: q.provider, return_features: true },
        },
      });
      setResult(r.data);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const set = (name) => (e) => setQ({ ...q, [name]: e.target.type === 'checkbox' ? e.target.checked : e.target.value });
  return html`<section aria-labelledby="search-title">
    <h2 id="search-title">Search playground</h2>
    <form class="filters" onSubmit=${run} aria-label="Search">
      <${Field} id="s-query" label="Query" required value=${q.query} onInput=${set('query')} />
      <${Field} id="s-user" label="External user id" value=${q.external_user_id} onInput=${set('external_user_id')} />
      <div class="field">
        <label for="s-provider">Ranking</label>
        <select id="s-provider" value=${q.provider} onChange=${set('provider')}>
          ${PROVIDERS.map(([v, label]) => html`<option value=${v}>${label}</option>`)}
        </select>
      </div>
      <div class="field check">
        <input id="s-agentic" type="checkbox" checked=${q.agentic} onChange=${set('agentic')} />
        <label for="s-agentic">Graph signal (enable_agentic_graph)</label>
      </div>
      <button type="submit" disabled=${busy}>${busy ? 'Searching…' : 'Search'}</button>
    </form>
    <${ErrorLine} error=${error} />
    ${result && html`<${Results} data=${result} />`}
  </section>`;
}

function Results({ data }) {
  return html`<div aria-live="polite">
    <p>${data.memories.length} memories${data.nodes?.length ? `, ${data.nodes.length} graph nodes` : ''}</p>
    <ol class="results">
      ${data.memories.map((m) => html`<li key=${m.id} class="result" data-memory-id=${m.id}><${Result} m=${m} /></li>`)}
    </ol>
    ${
      data.nodes?.length > 0 &&
      html`<h3>Graph nodes</h3>
        <ul class="chips">
          ${data.nodes.map((n) => html`<li>${n.label}: ${n.properties?.name ?? n.properties?.id ?? ''}</li>`)}
        </ul>`
    }
  </div>`;
}

function Result({ m }) {
  const features = m.ranker_features ?? {};
  const rest = Object.keys(features).filter((k) => !MAIN_FEATURES.includes(k));
  return html`<p class="content">${m.content}</p>
    <dl class="scores" aria-label="Scores">
      <div>
        <dt>relevance</dt>
        <dd data-score="relevance">${fmt(m.relevance_score)}</dd>
      </div>
      <div>
        <dt>similarity</dt>
        <dd data-score="similarity">${fmt(m.similarity_score)}</dd>
      </div>
      ${
        m.reranker_score !== undefined &&
        html`<div>
          <dt>rerank (${m.reranker_type})</dt>
          <dd data-score="rerank">${fmt(m.reranker_score)}</dd>
        </div>`
      }
      ${MAIN_FEATURES.filter((k) => k in features).map(
        (k) =>
          html`<div>
            <dt>${k}</dt>
            <dd data-score=${k}>${fmt(features[k])}</dd>
          </div>`,
      )}
    </dl>
    ${
      rest.length > 0 &&
      html`<details>
        <summary>All ${Object.keys(features).length} ranking features</summary>
        <dl class="scores small">
          ${rest.map(
            (k) =>
              html`<div>
                <dt>${k}</dt>
                <dd>${fmt(features[k])}</dd>
              </div>`,
          )}
        </dl>
      </details>`
    }`;
}
