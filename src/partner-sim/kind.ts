// Owns what an emulator kind gives the `sangam partner-sim` command: its own options (beside the
// common --port, --host, --latency-ms and --pending-ms) and how it starts; it prints one JSON line of
// what to configure in Sangam.
export interface Running {
  line: object;
  close(): Promise<void>;
}

export interface EmulatorKind {
  options: Record<string, { type: 'string'; multiple?: boolean }>;
  start(values: Record<string, string | undefined>): Promise<Running>;
}

export function int(v: string | undefined, name: string): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} must be a whole number ≥ 0`);
  return n;
}

/** The options every kind takes: where to listen, and how slow a step and a call are. */
export function commonOptions(v: Record<string, string | undefined>) {
  return { port: int(v.port, 'port'), host: v.host, pendingMs: int(v['pending-ms'], 'pending-ms'), latencyMs: int(v['latency-ms'], 'latency-ms') };
}

/** --webhook-url, refused unless it is an absolute URL. */
export function webhookUrlOption(v: Record<string, string | undefined>): string | undefined {
  const url = v['webhook-url'];
  if (url !== undefined && !URL.canParse(url)) throw new Error('--webhook-url must be an absolute URL');
  return url;
}

/** What to set in Sangam for a partner `name` of `kind` at `url` (CONTRACT §9): SANGAM_PARTNER_<NAME>_KIND, _URL and its own variables. */
export function partnerEnv(name: string, kind: string, url: string, vars: Record<string, string>): Record<string, string> {
  const prefix = `SANGAM_PARTNER_${name.toUpperCase()}_`;
  return Object.fromEntries(Object.entries({ KIND: kind, URL: url, ...vars }).map(([k, v]) => [prefix + k, v]));
}
