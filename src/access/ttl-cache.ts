// Owns the short-lived in-process cache used for access data (keys, allow-lists, approvals, limits).
// Its lifetime bounds how long a change made by another process (the CLI, another server) takes to
// apply; SANGAM_AUTH_CACHE_MS keeps it at most 1 s. Concurrent misses for one key share one load.
export class TtlCache<V> {
  private entries = new Map<string, { value: Promise<V>; at: number }>();

  constructor(
    private ttlMs: number,
    private maxEntries = 10_000,
  ) {}

  get(key: string, load: () => Promise<V>): Promise<V> {
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && now - hit.at < this.ttlMs) return hit.value;
    const value = load();
    if (this.ttlMs > 0) {
      if (this.entries.size >= this.maxEntries) this.entries.clear();
      this.entries.set(key, { value, at: now });
      value.catch(() => this.entries.delete(key));
    }
    return value;
  }
}
