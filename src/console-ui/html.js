/** htm bound to preact: tagged templates instead of JSX, so the console needs no JSX step. */
import htm from 'htm';
import { h } from 'preact';
import { useState } from 'preact/hooks';

export const html = htm.bind(h);

/** A labelled input: the label names the control for screen readers and clicks. */
export function Field({ id, label, ...rest }) {
  return html`<div class="field">
    <label for=${id}>${label}</label>
    <input id=${id} ...${rest} />
  </div>`;
}

/** An error from the API, announced to assistive technology. */
export function ErrorLine({ error }) {
  if (!error) return null;
  return html`<p class="error" role="alert">${error.status ? `${error.status}: ` : ''}${error.message}</p>`;
}

/**
 * A form's or button's action with its error: `guard(fn)` makes an event handler that runs `fn`
 * (the event's default prevented) and keeps what it threw for an ErrorLine.
 */
export function useAction() {
  const [error, setError] = useState(null);
  const guard = (fn) => async (e) => {
    e?.preventDefault();
    setError(null);
    try {
      await fn();
    } catch (err) {
      setError(err);
    }
  };
  return [error, guard];
}
