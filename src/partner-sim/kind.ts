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
