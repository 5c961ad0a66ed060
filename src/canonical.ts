// Owns canonical JSON: object keys sorted at every level, so the same value always hashes the same,
// whether it comes from a request, from memory or back from a jsonb column.
export function canonicalJson(value: unknown): string {
  const canon = (v: unknown): unknown =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, canon((v as Record<string, unknown>)[k])]))
      : Array.isArray(v)
        ? v.map(canon)
        : v;
  return JSON.stringify(canon(value)) ?? 'null';
}
