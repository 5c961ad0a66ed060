// Owns token buckets shared by the workers of one cluster (SANGAM_WORKERS > 1) when no Redis is
// configured. Without it each worker kept its own buckets, so N workers let N bursts through and N
// times the failed authentications. The primary keeps every bucket in memory (the same
// MemoryBucketStore a single process uses) and answers each worker's take over the cluster's IPC
// channel: one process owns a bucket, so a take is atomic, with no database row and no round trip to
// anything but the primary. A worker whose primary is gone cannot take: its limiter lets requests
// through and logs, as with a Redis outage. Separately started processes do not share this: give
// them SANGAM_REDIS_URL.
import cluster from 'node:cluster';
import { MemoryBucketStore, type BucketStore, type Limits } from './rate-limit.js';

const TYPE = 'sangam:bucket';

interface Take {
  type: typeof TYPE;
  id: number;
  key: string;
  limits: Limits;
  cost: number;
}
interface Taken {
  type: typeof TYPE;
  id: number;
  ok: boolean;
  tokens: number;
}

/** In the primary: answers every worker's takes from one set of buckets. */
export function serveClusterBuckets(): void {
  const store = new MemoryBucketStore();
  cluster.on('message', (worker, msg: Take) => {
    if (msg?.type !== TYPE) return;
    void store.take(msg.key, msg.limits, msg.cost).then((r) => {
      if (worker.isConnected()) worker.send({ type: TYPE, id: msg.id, ...r } satisfies Taken);
    });
  });
}

/** In a worker: takes through the primary. */
export class ClusterBucketStore implements BucketStore {
  private next = 0;
  private waiting = new Map<number, { resolve(r: { ok: boolean; tokens: number }): void; reject(err: Error): void }>();

  constructor() {
    process.on('message', (msg: Taken) => {
      if (msg?.type !== TYPE) return;
      this.waiting.get(msg.id)?.resolve({ ok: msg.ok, tokens: msg.tokens });
      this.waiting.delete(msg.id);
    });
    process.on('disconnect', () => {
      for (const w of this.waiting.values()) w.reject(new Error('the cluster primary is gone'));
      this.waiting.clear();
    });
  }

  take(key: string, limits: Limits, cost = 1): Promise<{ ok: boolean; tokens: number }> {
    if (!process.send || !process.connected) return Promise.reject(new Error('the cluster primary is gone'));
    const id = ++this.next;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      process.send!({ type: TYPE, id, key, limits, cost } satisfies Take, undefined, undefined, (err) => {
        if (!err) return;
        this.waiting.delete(id);
        reject(err);
      });
    });
  }
}
