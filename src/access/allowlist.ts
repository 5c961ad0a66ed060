// Owns IP allow-lists per account and environment: parsing entries (IPv4/IPv6 addresses and CIDR
// ranges), storing them, and matching a client address with node:net's BlockList. An IPv4-mapped IPv6
// address (::ffff:1.2.3.4) is matched as the IPv4 address it carries. An empty sandbox list allows
// every address; an empty live list allows none (CONTRACT §2).
import { BlockList, isIP } from 'node:net';
import type { Db } from '../db/client.js';
import type { Environment } from '../db/schema.js';
import { TtlCache } from './ttl-cache.js';

export class AllowlistEntryError extends Error {}

const MAPPED = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i;

/** The address as BlockList wants it: IPv4-mapped IPv6 becomes IPv4. */
export function normalizeIp(ip: string): { address: string; family: 'ipv4' | 'ipv6' } | null {
  const addr = ip.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const mapped = MAPPED.exec(addr);
  if (mapped) return { address: mapped[1]!, family: 'ipv4' };
  const v = isIP(addr);
  return v === 4 ? { address: addr, family: 'ipv4' } : v === 6 ? { address: addr.toLowerCase(), family: 'ipv6' } : null;
}

/** Parses "1.2.3.4", "10.0.0.0/8", "2001:db8::/32", "::ffff:10.0.0.1"; returns its canonical text. */
export function parseEntry(text: string): { canonical: string; address: string; prefix: number; family: 'ipv4' | 'ipv6' } {
  const [addrPart, prefixPart, extra] = text.trim().split('/');
  const ip = addrPart ? normalizeIp(addrPart) : null;
  if (!ip || extra !== undefined) throw new AllowlistEntryError(`not an IP address or CIDR range: ${text}`);
  const max = ip.family === 'ipv4' ? 32 : 128;
  const prefix = prefixPart === undefined ? max : Number(prefixPart);
  if (!/^\d{1,3}$/.test(prefixPart ?? String(max)) || !Number.isInteger(prefix) || prefix < 0 || prefix > max) {
    throw new AllowlistEntryError(`prefix must be 0 to ${max}: ${text}`);
  }
  const probe = new BlockList();
  probe.addSubnet(ip.address, prefix, ip.family); // throws on anything BlockList would not accept
  return { canonical: prefix === max ? ip.address : `${ip.address}/${prefix}`, address: ip.address, prefix, family: ip.family };
}

export async function addEntry(db: Db, accountId: string, environment: Environment, text: string): Promise<string> {
  const { canonical } = parseEntry(text);
  await db.insertInto('ip_allowlist').values({ account_id: accountId, environment, cidr: canonical }).onConflict((oc) => oc.doNothing()).execute();
  return canonical;
}

export async function removeEntry(db: Db, accountId: string, environment: Environment, text: string): Promise<boolean> {
  const { canonical } = parseEntry(text);
  const r = await db
    .deleteFrom('ip_allowlist')
    .where('account_id', '=', accountId)
    .where('environment', '=', environment)
    .where('cidr', '=', canonical)
    .executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

export async function listEntries(db: Db, accountId: string, environment: Environment): Promise<string[]> {
  const rows = await db
    .selectFrom('ip_allowlist')
    .select('cidr')
    .where('account_id', '=', accountId)
    .where('environment', '=', environment)
    .orderBy('created_at')
    .execute();
  return rows.map((r) => r.cidr);
}

/** Answers "may this address call for this account and environment?", from a short-lived cache. */
export class AllowlistGuard {
  private cache: TtlCache<BlockList | null>;

  constructor(
    private db: Db,
    ttlMs: number,
  ) {
    this.cache = new TtlCache(ttlMs);
  }

  async allows(accountId: string, environment: Environment, ip: string): Promise<boolean> {
    const list = await this.cache.get(`${accountId}:${environment}`, async () => {
      const entries = await listEntries(this.db, accountId, environment);
      if (entries.length === 0) return null;
      const bl = new BlockList();
      for (const e of entries) {
        const p = parseEntry(e);
        bl.addSubnet(p.address, p.prefix, p.family);
      }
      return bl;
    });
    if (list === null) return environment === 'sandbox';
    const addr = normalizeIp(ip);
    return addr !== null && list.check(addr.address, addr.family);
  }
}
