/**
 * The console's side of the server's OAuth login (docs/oauth.md, docs/console.md): send the
 * browser to /login with the console's own address as redirect_uri and a random state; when
 * /callback sends it back with ?code&state, check the state, exchange the code at POST /token
 * and keep the access token (sessionStorage, this tab only). The server holds the PKCE verifier
 * and the provider's secrets; the state guards this page against a code it did not ask for.
 */
import { api, session } from './api.js';

const STATE = 'engram.oauthState';

/**
 * The console's own address as allow-listed in OAUTH_REDIRECT_URIS: always `/console/` (the page
 * also answers at `/console`, but the allow-list compares paths exactly).
 */
export const redirectUri = () => `${location.origin}/console/`;

function randomState() {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Leave for the identity provider (through the server's `loginPath`, `/login`). */
export function startLogin(loginPath) {
  const state = randomState();
  sessionStorage.setItem(STATE, state);
  const q = new URLSearchParams({ redirect_uri: redirectUri(), state });
  location.assign(`${loginPath}?${q}`);
}

/**
 * On load: when the address carries the login's answer (?code&state, or ?error&state), take it
 * off the address (so a reload or a bookmark does not replay it) and finish the login.
 * Resolves to null when there was nothing to finish, to true when signed in; throws (an Error
 * whose message is shown on the sign-in form) when the login failed.
 */
export async function finishLogin() {
  const q = new URLSearchParams(location.search);
  if (!q.has('state') || !(q.has('code') || q.has('error'))) return null;
  history.replaceState(null, '', `${location.pathname}${location.hash}`);
  const expected = sessionStorage.getItem(STATE);
  sessionStorage.removeItem(STATE);
  if (!expected || q.get('state') !== expected) {
    throw new Error('The login answer does not match a login started in this tab; sign in again.');
  }
  if (q.has('error')) {
    throw new Error(`The identity provider refused the login: ${q.get('error_description') || q.get('error')}`);
  }
  const tokens = await api('POST', '/token', {
    key: '',
    body: { grant_type: 'authorization_code', code: q.get('code'), redirect_uri: redirectUri() },
  });
  session.signInWithToken(tokens.access_token);
  return true;
}

/** Revoke the login's session and refresh tokens at the server (the provider's session stays). */
export async function logout() {
  if (!session.token()) return;
  await fetch('/logout', { headers: { ...session.headers(), Accept: 'application/json' } }).catch(() => {});
}
