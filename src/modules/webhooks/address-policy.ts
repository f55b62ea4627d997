import ipaddr from 'ipaddr.js';

/**
 * Which addresses a webhook may reach (SSRF, issue #17 finding 7): public unicast only.
 *
 * Allow-list, not block-list: an address passes only when ipaddr.js finds it in no special
 * range ("unicast"), and an IPv6 one also only inside global unicast 2000::/3. So loopback,
 * private, link-local (cloud metadata 169.254.169.254), unique-local, CGNAT, multicast,
 * broadcast, unspecified, benchmarking 198.18/15, documentation (192.0.2/24, 198.51.100/24,
 * 203.0.113/24, 2001:db8::/32), reserved 240/4, discard 100::/64 and whatever else the IANA
 * special-purpose registries list are refused, including ranges added later by ipaddr.js.
 *
 * IPv6 forms that carry an IPv4 address are judged by that address, because it is the one
 * the packets reach: IPv4-mapped ::ffff:a.b.c.d, IPv4-translated ::ffff:0:a.b.c.d,
 * IPv4-compatible ::a.b.c.d, NAT64 64:ff9b::/96 and the local-use 64:ff9b:1::/48, 6to4
 * 2002::/16 and Teredo 2001::/32 (its server and its client address must both be public).
 */
export function internalRange(address: string): string | null {
  const literal = address.includes(':') ? canonicalIPv6(address) : address;
  if (!ipaddr.isValid(literal)) return 'not an IP address';
  const ip = ipaddr.parse(literal);
  return ip.kind() === 'ipv4' ? ipv4Range(ip as ipaddr.IPv4) : ipv6Range(ip as ipaddr.IPv6);
}

/**
 * An IPv6 literal as Node reads it (WHATWG serialisation, hex only): ipaddr.js reads
 * `::a.b.c.d` as `::ffff:a.b.c.d`, which is not the address a socket would connect to.
 */
function canonicalIPv6(address: string): string {
  try {
    return new URL(`http://[${address.replace(/%.*$/, '')}]/`).hostname.slice(1, -1);
  } catch {
    return address;
  }
}

function ipv4Range(ip: ipaddr.IPv4): string | null {
  const range = ip.range();
  return range === 'unicast' ? null : range;
}

/** The IPv4 address in 32 bits given as two 16-bit parts. */
const ipv4Of = (high: number, low: number) => new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);

/** Judge an embedded IPv4 address, naming the IPv6 form it came in when refused. */
function embedded(form: string, ...ips: ipaddr.IPv4[]): string | null {
  for (const ip of ips) {
    const range = ipv4Range(ip);
    if (range) return `${range} (${ip.toString()} inside ${form})`;
  }
  return null;
}

function ipv6Range(ip: ipaddr.IPv6): string | null {
  const p = ip.parts;
  const last32 = ipv4Of(p[6], p[7]);
  const range = ip.range();
  switch (range) {
    case 'ipv4Mapped':
      return embedded('an IPv4-mapped address', last32);
    case 'rfc6145':
      return embedded('an IPv4-translated address', last32);
    case 'rfc6052':
      // 64:ff9b::/96 always carries the address in its last 32 bits; the local-use
      // 64:ff9b:1::/48 may use other layouts: only the /96 one is understood, others refused.
      if (p[2] === 0 || (p[3] === 0 && p[4] === 0 && p[5] === 0)) return embedded('a NAT64 address', last32);
      return 'rfc8215 (local-use NAT64 prefix of unknown layout)';
    case '6to4':
      return embedded('a 6to4 address', ipv4Of(p[1], p[2]));
    case 'teredo':
      // 2001:0:SSSS:SSSS:flags:port:CCCC:CCCC: server in clear, client address inverted.
      return embedded('a Teredo address', ipv4Of(p[2], p[3]), ipv4Of(p[6] ^ 0xffff, p[7] ^ 0xffff));
    case 'unicast':
      // IPv4-compatible ::a.b.c.d (deprecated; :: and ::1 are their own ranges above).
      if (p.slice(0, 6).every((x) => x === 0)) return embedded('an IPv4-compatible address', last32);
      return (p[0] & 0xe000) === 0x2000 ? null : 'outside global unicast 2000::/3';
    default:
      return range;
  }
}
