/** Sign in with an API key (checked with GET /me), or through the OAuth login when the server has one. */
import { useEffect, useState } from 'preact/hooks';
import { api, session } from '../api.js';
import { ErrorLine, Field, html } from '../html.js';
import { startLogin } from '../oauth.js';

/** `error`: why the last sign-in (an OAuth login coming back, a kept credential) failed. */
export function SignIn({ onSignedIn, error: earlier }) {
  const [key, setKey] = useState('');
  const [error, setError] = useState(earlier ?? null);
  const [oauth, setOauth] = useState(null);

  useEffect(() => {
    fetch('/console/settings.json')
      .then((r) => r.json())
      .then(
        (s) => setOauth(s.oauth_login),
        () => setOauth(null),
      );
  }, []);

  const submit = async (e) => {
    e.preventDefault();
    setError(null);
    try {
      const me = await api('GET', '/me', { key: key.trim() });
      session.signIn(key.trim());
      onSignedIn(me);
    } catch (err) {
      setError(err);
    }
  };
  return html`<main class="signin" id="main">
    <h1>Engram console</h1>
    <form onSubmit=${submit} aria-labelledby="signin-title">
      <h2 id="signin-title">Sign in</h2>
      <${Field}
        id="api-key"
        label="API key"
        type="password"
        autocomplete="off"
        required
        value=${key}
        onInput=${(e) => setKey(e.target.value)}
      />
      <p class="muted">Kept in this tab only (sessionStorage); every call sends it as X-API-Key.</p>
      <button type="submit">Sign in</button>
      <${ErrorLine} error=${error} />
    </form>
    ${
      oauth &&
      html`<section class="oauth" aria-labelledby="oauth-title">
      <h2 id="oauth-title">Or with your organization's login</h2>
      <button type="button" onClick=${() => startLogin(oauth)}>Sign in with the identity provider</button>
      <p class="muted">
        OAuth through this server; the console keeps the access token in this tab only and sends it as
        Authorization: Bearer.
      </p>
    </section>`
    }
  </main>`;
}
