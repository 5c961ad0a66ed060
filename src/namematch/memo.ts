// Owns the engine's only state: bounded caches of pure functions of one word (its phonetic key, its
// weight, its variant group). Names repeat their words (Kumar, Singh, Devi), so most lookups hit; a
// cache that fills is emptied, never evicted piecemeal, so memory stays bounded and answers are the
// same with or without it.
const LIMIT = 20_000;

export function memo<T>(fn: (key: string) => T): (key: string) => T {
  const cache = new Map<string, T>();
  return (key: string) => {
    let v = cache.get(key);
    if (v === undefined && !cache.has(key)) {
      v = fn(key);
      if (cache.size >= LIMIT) cache.clear();
      cache.set(key, v);
    }
    return v as T;
  };
}
