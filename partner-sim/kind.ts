// Owns what an emulator kind gives the `sangam partner-sim` command: its own options (beside the
// common --port, --host, --latency-ms and --pending-ms) and how it starts; it prints one JSON line of
// what to configure in Sangam. A partner emulator's kind is declared once (partnerKind): its options are
// named once and reach the emulator camel-cased, and its line reports settings under snake_case names.
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

/** The options every kind takes: where to listen, how slow a step and a call are, and where its books are kept. */
export function commonOptions(v: Record<string, string | undefined>) {
  return { port: int(v.port, 'port'), host: v.host, pendingMs: int(v['pending-ms'], 'pending-ms'), latencyMs: int(v['latency-ms'], 'latency-ms'), dataDir: v['data-dir'] || null };
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

type Values = Record<string, string | undefined>;
/** `--a-b-c` → `aBC`: how an option's name reaches the emulator. */
type Camel<S extends string> = S extends `${infer A}-${infer B}` ? `${A}${Capitalize<Camel<B>>}` : S;
const camel = (name: string) => name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

/** The emulator's options from the command line: the common ones, its texts, its whole numbers, its webhook URL. */
export type ParsedOptions<S extends string, I extends string> = ReturnType<typeof commonOptions> & { [K in S as Camel<K>]?: string } & { [K in I as Camel<K>]?: number } & { webhookUrl?: string };

export interface PartnerKindSpec<E extends { url: string; close(): Promise<void> }, S extends string, I extends string> {
  /** The kind, also the partner's KIND in Sangam. */
  kind: string;
  /** The NAME in SANGAM_PARTNER_<NAME>_… of the printed env. */
  partner: string;
  /** Its own options given as text, and as whole numbers ≥ 0. */
  strings: readonly S[];
  ints?: readonly I[];
  /** It takes --webhook-url (refused unless absolute). */
  webhook?: boolean;
  start(options: ParsedOptions<S, I>, values: Values): Promise<E>;
  /** What the printed line says between the url and the env. */
  line(emu: E): object;
  /** The partner's own variables to set in Sangam (besides KIND and URL). */
  vars(emu: E): Record<string, string>;
}

/** A partner emulator's kind: options parsed, started, and its line `{kind, url, …line, env}`. */
export function partnerKind<E extends { url: string; close(): Promise<void> }, S extends string, I extends string = never>(spec: PartnerKindSpec<E, S, I>): EmulatorKind {
  const ints: readonly string[] = spec.ints ?? [];
  const names = [...spec.strings, ...ints, ...(spec.webhook ? ['webhook-url'] : [])];
  return {
    options: Object.fromEntries(names.map((n) => [n, { type: 'string' as const }])),
    async start(v) {
      const options = {
        ...commonOptions(v),
        ...Object.fromEntries(spec.strings.map((n) => [camel(n), v[n]])),
        ...Object.fromEntries(ints.map((n) => [camel(n), int(v[n], n)])),
        ...(spec.webhook ? { webhookUrl: webhookUrlOption(v) } : {}),
      } as ParsedOptions<S, I>;
      const emu = await spec.start(options, v);
      const line = { kind: spec.kind, url: emu.url, ...spec.line(emu), env: partnerEnv(spec.partner, spec.kind, emu.url, spec.vars(emu)) };
      return { line, close: () => emu.close() };
    },
  };
}

/** Settings as the printed line reports them: each named one under its snake_case name. */
export function reported<T extends object, K extends keyof T & string>(settings: T, keys: readonly K[]): Record<string, T[K]> {
  return Object.fromEntries(keys.map((k) => [k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), settings[k]]));
}
