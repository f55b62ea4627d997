import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { unprocessable } from '../../shared/errors.ts';

/**
 * Addresses a webhook must not reach (SSRF): this host, private networks, link-local (cloud
 * metadata at 169.254.169.254), unique-local, CGNAT, multicast and unspecified.
 */
const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const)
  blocked.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  blocked.addSubnet(net, prefix, 'ipv6');
}

/** Whether an IP literal is loopback, private, link-local, unique-local or otherwise internal. */
export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return blocked.check(mapped[1], 'ipv4');
  const family = isIP(address);
  if (family === 0) return true;
  return blocked.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

const reject = (reason: string, url: string) =>
  unprocessable(`webhook_url is not allowed: ${reason}`, { field: 'webhook_url', url });

/**
 * Validate a webhook URL: http(s) only, no credentials, and (unless `allowPrivate`) every
 * address the host resolves to must be public. Checked when registering and again before
 * each delivery (a name can be re-pointed after registration). Throws AppError 422.
 */
export async function checkWebhookUrl(raw: string, allowPrivate: boolean): Promise<string> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw reject('not a valid URL', raw);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw reject('only http and https URLs are accepted', raw);
  if (url.username || url.password) throw reject('credentials in the URL are not accepted; use webhook_secret', raw);
  if (allowPrivate) return url.toString();
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
    } catch {
      throw reject(`host ${host} does not resolve`, raw);
    }
  }
  const internal = addresses.find(isPrivateAddress);
  if (internal) throw reject(`${host} is a loopback, private or link-local address (${internal})`, raw);
  return url.toString();
}
