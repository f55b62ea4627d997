/**
 * The web console (docs/console.md): sign in with an API key or through the server's OAuth
 * login, then browse memories, try searches, look at the graph, follow batches, documents and
 * sessions, and manage namespaces and keys — every call through the public HTTP API with that
 * key or access token.
 */
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api, session } from './api.js';
import { html } from './html.js';
import { finishLogin, logout } from './oauth.js';
import { SignIn } from './views/signin.js';
import { Memories } from './views/memories.js';
import { Search } from './views/search.js';
import { Graph } from './views/graph.js';
import { Jobs } from './views/jobs.js';
import { Admin } from './views/admin.js';

const VIEWS = [
  { id: 'memories', label: 'Memories', View: Memories },
  { id: 'search', label: 'Search', View: Search },
  { id: 'graph', label: 'Graph', View: Graph },
  { id: 'jobs', label: 'Batches, documents, sessions', View: Jobs },
  { id: 'admin', label: 'Namespaces and keys', View: Admin },
];

/** The view named by the URL's hash, so a view can be bookmarked and Back works. */
const fromHash = () => VIEWS.find((v) => `#${v.id}` === location.hash) ?? VIEWS[0];

function App() {
  const [me, setMe] = useState(null);
  const [checking, setChecking] = useState(true);
  const [loginError, setLoginError] = useState(null);
  const [view, setView] = useState(fromHash());

  useEffect(() => {
    const onHash = () => setView(fromHash());
    addEventListener('hashchange', onHash);
    return () => removeEventListener('hashchange', onHash);
  }, []);
  // Back from the OAuth login (?code&state), or a credential kept from earlier in this tab:
  // check it is good (GET /me) before showing anything.
  useEffect(() => {
    finishLogin()
      .catch((err) => {
        session.signOut();
        setLoginError(err);
      })
      .then(() => (session.signedIn() ? api('GET', '/me').then(setMe) : null))
      .catch((err) => {
        session.signOut();
        setLoginError(err);
      })
      .finally(() => setChecking(false));
  }, []);

  if (checking) return html`<p class="muted">Checking your sign-in…</p>`;
  if (!me) return html`<${SignIn} onSignedIn=${setMe} error=${loginError} />`;
  const signOut = async () => {
    await logout();
    session.signOut();
    setLoginError(null);
    setMe(null);
  };
  const who = me.displayName || me.email || me.user_id;
  const { View } = view;
  return html`<header class="top">
      <h1>Engram console</h1>
      <nav aria-label="Views">
        ${VIEWS.map(
          (v) =>
            html`<a href=${`#${v.id}`} aria-current=${v.id === view.id ? 'page' : undefined} data-view=${v.id}
              >${v.label}</a
            >`,
        )}
      </nav>
      <p class="who" data-signed-in=${session.token() ? 'oauth' : 'api-key'}>
        Signed in as <strong>${who}</strong>${session.token() ? ' (identity provider)' : ' (API key)'}
      </p>
      <button type="button" onClick=${signOut}>Sign out</button>
    </header>
    <main id="main" tabindex="-1"><${View} me=${me} /></main>`;
}

render(html`<${App} />`, document.getElementById('app'));
