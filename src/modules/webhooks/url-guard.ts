import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { unprocessable } from '../../shared/errors.ts';
import { internalRange } from './address-policy.ts';

/** Every address a host name resolves to (dns.lookup with `all`); tests inject one instead of real DNS. */
export type Resolve = (hostname: string) => Promise<{ address: string; family: number }[]>;

/** How long registering a webhook waits for its host name to resolve. */
export const RESOLVE_TIMEOUT_MS = 3000;

/** The system resolver (getaddrinfo: /etc/hosts, then DNS), in the order it answers. */
export const systemResolve: Resolve = (hostname) => lookup(hostname, { all: true, verbatim: true });

/** A URL host without the brackets of an IPv6 literal. */
export const bareHost = (hostname: string) => hostname.replace(/^\[|\]$/g, '');

/** The first of `addresses` a webhook must not reach, with its range; undefined when all are public. */
export function firstInternal(addresses: string[]): { address: string; range: string } | undefined {
  for (const address of addresses) {
    const range = internalRange(address);
    if (range) return { address, range };
  }
  return undefined;
}

const reject = (reason: string, url: string) =>
  unprocessable(`webhook_url is not allowed: ${reason}`, { field: 'webhook_url', url });

/**
 * Validate a webhook URL when it is registered: http(s) only, no credentials, and (unless
 * `allowPrivate`) every address the host resolves to must be public (address-policy.ts).
 * This answers the caller early with a clear 422; it is not what protects the delivery (a
 * name can be re-pointed after this check): the delivery checks the address it connects to
 * (delivery-agent.ts). Throws AppError 422.
 */
export async function checkWebhookUrl(raw: string, allowPrivate: boolean, resolve: Resolve = systemResolve) {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw reject('not a valid URL', raw);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw reject('only http and https URLs are accepted', raw);
  if (url.username || url.password) throw reject('credentials in the URL are not accepted; use webhook_secret', raw);
  if (allowPrivate) return url.toString();
  const host = bareHost(url.hostname);
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    let timer: NodeJS.Timeout | undefined;
    // A request must not wait on a slow resolver for as long as it likes (getaddrinfo has no deadline).
    const late = new Promise<never>((_, fail) => {
      timer = setTimeout(() => fail(new Error('timeout')), RESOLVE_TIMEOUT_MS);
    });
    try {
      addresses = (await Promise.race([resolve(host), late])).map((a) => a.address);
    } catch (err) {
      const why =
        (err as Error).message === 'timeout'
          ? `did not resolve within ${RESOLVE_TIMEOUT_MS / 1000} s`
          : 'does not resolve';
      throw reject(`host ${host} ${why}`, raw);
    } finally {
      clearTimeout(timer);
    }
    if (!addresses.length) throw reject(`host ${host} does not resolve`, raw);
  }
  const internal = firstInternal(addresses);
  if (internal) {
    throw reject(
      `${host} is ${internal.address}, a non-public address (${internal.range}); webhooks reach only public addresses`,
      raw,
    );
  }
  return url.toString();
}
