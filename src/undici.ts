// Owns loading undici, the HTTP client of partner calls (providers/partner-http.ts) and webhook
// deliveries (webhooks/worker.ts): on first use, not at boot (about 100 ms of module loading, issue
// #28), through one require so that both share the module Node caches.
import { createRequire } from 'node:module';

const load = createRequire(import.meta.url);

/** The undici module, loaded the first time it is asked for. */
export const undici = () => load('undici') as typeof import('undici');
