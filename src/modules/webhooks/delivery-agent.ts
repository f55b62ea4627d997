import { isIP, type LookupFunction } from 'node:net';
import type { LookupAddress } from 'node:dns';
import { Agent, buildConnector } from 'undici';
import { bareHost, firstInternal, type Resolve } from './url-guard.ts';

/** A delivery refused because its host is (or resolved to) an address webhooks must not reach. */
export class BlockedAddressError extends Error {
  readonly code = 'ERR_WEBHOOK_ADDRESS_BLOCKED';
  constructor(host: string, address: string, range: string) {
    const shown = host === address ? address : `${host} resolved to ${address}`;
    super(`refused to connect: ${shown}, a non-public address (${range}); webhooks reach only public addresses`);
    this.name = 'BlockedAddressError';
  }
}

/** The BlockedAddressError behind a failed request, if that is why it failed (undici wraps it). */
export function blockedCause(err: unknown): BlockedAddressError | undefined {
  for (let e = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof BlockedAddressError) return e;
  }
  return undefined;
}

export interface DeliveryAgentOptions {
  /** Let deliveries reach loopback and private addresses (WEBHOOK_ALLOW_PRIVATE: tests, trusted networks). */
  allowPrivate: boolean;
  resolve: Resolve;
  connectTimeoutMs: number;
}

/**
 * The dispatcher of every webhook delivery. The check happens where the connection is made,
 * not before it (DNS rebinding: a name checked at registration, or just before the request,
 * can answer differently when the socket resolves it): the socket's `lookup` resolves the
 * name once and refuses if any address is non-public, so the address connected to is the
 * one checked. IP literals (which sockets do not look up) are checked before connecting, and
 * the connected socket's remote address once more. `allowPrivate` goes through the same path
 * with the check switched off.
 */
export function createDeliveryAgent(opts: DeliveryAgentOptions): Agent {
  const blocked = (host: string, addresses: string[]) => {
    if (opts.allowPrivate) return undefined;
    const hit = firstInternal(addresses);
    return hit ? new BlockedAddressError(host, hit.address, hit.range) : undefined;
  };

  const lookup: LookupFunction = (hostname, options, callback) => {
    const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family || 0;
    opts.resolve(hostname).then(
      (answers) => {
        const all = answers.filter((a) => isIP(a.address)); // the socket would throw on anything else
        const addresses = all.map((a) => a.address);
        const err = blocked(hostname, addresses);
        if (err) return callback(err, '', 0);
        const usable: LookupAddress[] = all.filter((a) => !family || a.family === family);
        if (!usable.length) {
          const none = Object.assign(new Error(`${hostname} has no IPv${family || ''} address`), { code: 'ENOTFOUND' });
          return callback(none, '', 0);
        }
        if (options.all) callback(null, usable);
        else callback(null, usable[0].address, usable[0].family);
      },
      (err: NodeJS.ErrnoException) => callback(err, '', 0),
    );
  };

  const connectSocket = buildConnector({ lookup, timeout: opts.connectTimeoutMs });
  const connect: buildConnector.connector = (target, callback) => {
    const host = bareHost(target.hostname);
    const literal = isIP(host) ? blocked(host, [host]) : undefined;
    if (literal) return callback(literal, null);
    connectSocket(target, (...args) => {
      const [err, socket] = args;
      if (err) return callback(err, null);
      // What the socket actually reached, whatever resolved it.
      const reached = socket.remoteAddress ? blocked(host, [socket.remoteAddress]) : undefined;
      if (!reached) return callback(null, socket);
      socket.destroy();
      callback(reached, null);
    });
  };
  return new Agent({ connect });
}
