// Owns the SSRF guard for webhook deliveries: the receiver's hostname is resolved at delivery time and
// every address checked against loopback, private, link-local (cloud metadata), CGNAT, multicast and
// reserved ranges (node:net BlockList). The connection is made to the address that was checked, so a
// DNS answer cannot change between the check and the connect (rebinding). SANGAM_WEBHOOK_ALLOW_PRIVATE=1
// lifts the address check for local development and tests.
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { lookup } from 'node:dns';
import { normalizeIp } from '../access/allowlist.js';

const BLOCKED = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) BLOCKED.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['64:ff9b::', 96]] as const) {
  BLOCKED.addSubnet(net, prefix, 'ipv6');
}

export class BlockedAddress extends Error {}

export function isBlocked(address: string): boolean {
  const ip = normalizeIp(address);
  return ip === null || BLOCKED.check(ip.address, ip.family);
}

/** A dns.lookup that refuses blocked addresses (used as the connection's lookup). */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const list = addresses as Array<{ address: string; family: number }>;
      const ok = allowPrivate ? list : list.filter((a) => !isBlocked(a.address));
      if (ok.length === 0) {
        return callback(new BlockedAddress(`${hostname} resolves only to private or reserved addresses`) as NodeJS.ErrnoException, '', 0);
      }
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: typeof ok) => void)(null, ok);
      callback(null, ok[0]!.address, ok[0]!.family);
    });
  };
}

/** Registration-time check of a URL; returns why it is refused, or null. */
export async function refuseUrl(url: string, opts: { live: boolean; allowPrivate: boolean }): Promise<string | null> {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return 'url must be an absolute http(s) URL';
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return 'url must be http(s)';
  if (opts.live && u.protocol !== 'https:') return 'live webhook endpoints must use https';
  if (u.username || u.password) return 'url must not carry credentials';
  if (opts.allowPrivate) return null;
  const host = u.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) return isBlocked(host) ? 'url points at a private or reserved address' : null;
  const addrs = await new Promise<string[]>((resolve) => lookup(host, { all: true }, (err, a) => resolve(err ? [] : a.map((x) => x.address))));
  // A name that does not resolve yet is accepted: every delivery resolves and checks it again.
  return addrs.length > 0 && addrs.every(isBlocked) ? 'url resolves only to private or reserved addresses' : null;
}
