// Owns `sangam partner-sim --kind digilocker`: the options of this emulator and how it starts
// (partner-sim/cli.ts lists every kind).
import { startDigilockerEmulator } from './server.js';
import { int, type EmulatorKind } from '../kind.js';

export const kind: EmulatorKind = {
  options: { 'client-id': { type: 'string' }, 'client-secret': { type: 'string' }, 'redirect-uri': { type: 'string', multiple: true }, 'pki-dir': { type: 'string' }, 'eaadhaar-shape': { type: 'string' } },
  async start(v) {
    const shape = v['eaadhaar-shape'];
    if (shape !== undefined && shape !== 'certificate' && shape !== 'kycres') throw new Error('--eaadhaar-shape must be certificate or kycres');
    const dl = await startDigilockerEmulator({
      port: int(v.port, 'port') ?? 0,
      host: v.host,
      clientId: v['client-id'],
      clientSecret: v['client-secret'],
      redirectUris: v['redirect-uri'] as string[] | undefined,
      pkiDir: v['pki-dir'],
      eaadhaarShape: shape,
      latencyMs: int(v['latency-ms'], 'latency-ms'),
    });
    return {
      line: { url: dl.url, client_id: dl.clientId, client_secret: dl.clientSecret, trust_anchors: dl.anchorsPath, admin: `${dl.origin}/_sim` },
      close: () => dl.close(),
    };
  },
  };
