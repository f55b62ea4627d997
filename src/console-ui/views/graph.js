/**
 * A user's knowledge graph, drawn with cytoscape: the nodes and relationships of their most
 * recent memories, read through GraphQL's `graph` query (there is no REST route for it).
 * The same graph is listed as text below the drawing, for keyboards and screen readers.
 */
import cytoscape from 'cytoscape';
import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../api.js';
import { ErrorLine, Field, html } from '../html.js';

const QUERY = `query ConsoleGraph($user: String, $namespace: ID) {
  graph(externalUserId: $user, namespaceId: $namespace, maxNodes: 100, maxRelationships: 200) {
    memoriesRead
    nodes { id label name }
    relationships { id type source { id } target { id } }
  }
}`;

/** A ring for a few nodes (labels stay apart), force-directed for more, a grid past what cose lays out fast. */
function layoutFor(n) {
  if (n <= 20) return { name: 'circle', padding: 40, radius: Math.max(140, n * 16), animate: false };
  return n <= 60 ? { name: 'cose', padding: 40, animate: false } : { name: 'grid', padding: 30 };
}

export function Graph() {
  const [user, setUser] = useState('');
  const [graph, setGraph] = useState(null);
  const [error, setError] = useState(null);
  const box = useRef(null);

  const load = async (e) => {
    e?.preventDefault();
    setError(null);
    try {
      const r = await api('POST', '/v1/graphql', { body: { query: QUERY, variables: { user: user || null } } });
      if (r.errors?.length) throw new Error(r.errors.map((x) => x.message).join('; '));
      setGraph(r.data.graph);
    } catch (err) {
      setError(err);
    }
  };

  useEffect(() => {
    if (!graph || !box.current) return;
    const ids = new Set(graph.nodes.map((n) => n.id));
    const cy = cytoscape({
      container: box.current,
      elements: [
        ...graph.nodes.map((n) => ({ data: { id: n.id, name: `${n.name ?? n.id}`, label: n.label } })),
        // A relationship to a node beyond maxNodes has nothing to attach to: left out of the drawing.
        ...graph.relationships
          .filter((r) => ids.has(r.source.id) && ids.has(r.target.id))
          .map((r) => ({ data: { id: `e${r.id}`, source: r.source.id, target: r.target.id, type: r.type } })),
      ],
      style: [
        {
          selector: 'node',
          style: {
            label: 'data(name)',
            'font-size': 11,
            width: 22,
            height: 22,
            'background-color': '#2b6cb0',
            color: '#1a202c',
          },
        },
        { selector: 'node[label = "Person"]', style: { 'background-color': '#c05621' } },
        {
          selector: 'edge',
          style: {
            label: 'data(type)',
            'font-size': 8,
            'text-rotation': 'autorotate',
            'text-background-color': '#fff',
            'text-background-opacity': 0.85,
            width: 1.5,
            'curve-style': 'bezier',
            'target-arrow-shape': 'triangle',
            'line-color': '#718096',
            'target-arrow-color': '#718096',
          },
        },
      ],
      layout: layoutFor(graph.nodes.length),
      maxZoom: 1.6,
    });
    box.current.dataset.nodes = String(cy.nodes().length);
    box.current.dataset.edges = String(cy.edges().length);
    return () => cy.destroy();
  }, [graph]);

  const names = new Map(graph?.nodes.map((n) => [n.id, n.name ?? n.id]) ?? []);
  return html`<section aria-labelledby="graph-title">
    <h2 id="graph-title">Graph</h2>
    <form class="filters" onSubmit=${load} aria-label="Choose a user">
      <${Field} id="g-user" label="External user id" value=${user} onInput=${(e) => setUser(e.target.value)} />
      <button type="submit">Show graph</button>
    </form>
    <${ErrorLine} error=${error} />
    ${
      graph &&
      html`<p>
        ${`${graph.nodes.length} nodes and ${graph.relationships.length} relationships from ${graph.memoriesRead} memories.`}
      </p>`
    }
    <div class="graph" ref=${box} role="img" aria-label="Graph drawing; the same graph is listed below"></div>
    ${
      graph &&
      html`<details>
        <summary>Nodes and relationships as text</summary>
        <ul>
          ${graph.nodes.map((n) => html`<li>${n.label}: ${n.name ?? n.id}</li>`)}
        </ul>
        <ul>
          ${graph.relationships.map(
            (r) =>
              html`<li>
                ${names.get(r.source.id) ?? r.source.id} —${r.type}→ ${names.get(r.target.id) ?? r.target.id}
              </li>`,
          )}
        </ul>
      </details>`
    }
  </section>`;
}
