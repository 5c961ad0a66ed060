// Owns the partner-network simulator (`sangam partner-sim`): a separate HTTP server that behaves like
// the upstream networks (bank/NPCI, DigiLocker, recharge operators). It answers with the seed's
// latencies (or --latency-ms), the outcome table it is handed (answerer.ts: `sangam partner-sim` hands
// it the sandbox's), and signed asynchronous callbacks (Standard Webhooks) for what goes pending. It is
// idempotent by client_ref, answers status enquiries, and misbehaves on demand (POST /_sim/faults):
// timeouts, 5xx, duplicate, late, dropped and out-of-order callbacks, bad signatures.
import type { FastifyInstance } from 'fastify';
import { Webhook } from 'standardwebhooks';
import { randomUUID } from 'node:crypto';
import { LOOKUP_PATH, PARTNER_PATHS, PLANS_PATH, type PartnerAnswer, type PartnerCallback, type WireLookup, type WirePlan } from '../shared/protocol.js';
import { randomBase62 } from '../shared/ids.js';
import type { Answer, Answerer, FinalAnswer } from './answerer.js';
import { toPartnerData } from './translate.js';
import { registerConsentScreen, type Consent } from './consent.js';
import { closeEmulator, emulatorApp, listen, Timers } from './common/server.js';

export interface SimOptions {
  port: number;
  host?: string;
  secret: string;
  /** Fixed latency for every call; default: the seed's §8 medians (150 ms verification, 600 ms payments). */
  latencyMs?: number;
  /** The outcome of every call, and the recharge pre-flight's answers. */
  answerer: Answerer;
}

export interface Faults {
  /** The next N operation calls hang for timeout_ms before answering. */
  timeout_next: number;
  timeout_ms: number;
  /** The next N operation calls answer 503 before doing anything (safe to retry). */
  error_next: number;
  duplicate_callbacks: boolean;
  callback_delay_ms: number;
  drop_callbacks: boolean;
  /** After a final callback, also send a stale PENDING one. */
  out_of_order: boolean;
  bad_signature: boolean;
}

const NO_FAULTS: Faults = {
  timeout_next: 0,
  timeout_ms: 30_000,
  error_next: 0,
  duplicate_callbacks: false,
  callback_delay_ms: 0,
  drop_callbacks: false,
  out_of_order: false,
  bad_signature: false,
};

interface Record_ {
  op: keyof typeof PARTNER_PATHS;
  answer: PartnerAnswer;
  callbackUrl: string | null;
  calls: number;
}

const VERIFICATION = new Set(['signatureMatch', 'aadhaarInitialize', 'aadhaarDownload', 'mobileToBank']);

/** What the simulator holds while it runs: its records, consents, timers and the fault set. */
class Network {
  readonly answerer: Answerer;
  readonly records = new Map<string, Record_>();
  readonly consents = new Map<string, Consent>();
  readonly timers = new Timers();
  faults: Faults = { ...NO_FAULTS };
  publicUrl = '';
  private signer: Webhook;
  private forger = new Webhook(`whsec_${Buffer.from(randomBase62(32)).toString('base64')}`);

  constructor(private opts: SimOptions) {
    this.answerer = opts.answerer;
    this.signer = new Webhook(opts.secret);
  }

  latency(op: string): number {
    return this.opts.latencyMs ?? (VERIFICATION.has(op) ? 150 : 600);
  }

  /** One signed callback, retried while the receiver is down or failing; twice under duplicate_callbacks. */
  async deliver(url: string, answer: PartnerAnswer): Promise<void> {
    const body = JSON.stringify({ type: 'transaction.update', data: answer } satisfies PartnerCallback);
    const id = `msg_${randomUUID()}`;
    const send = async () => {
      const ts = new Date();
      const signature = (this.faults.bad_signature ? this.forger : this.signer).sign(id, ts, body);
      for (let attempt = 0; attempt < 5; attempt++) {
        try {
          const res = await fetch(url, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'webhook-id': id, 'webhook-timestamp': String(Math.floor(ts.getTime() / 1000)), 'webhook-signature': signature },
            body,
          });
          if (res.status < 500) return;
        } catch {
          // receiver down: retry below
        }
        await this.timers.sleep(200 * 2 ** attempt);
      }
    };
    await send();
    if (this.faults.duplicate_callbacks) await send();
  }

  /** The pending record becomes `final` after `afterMs`, and its callback follows (as the faults allow). */
  settleLater(ref: string, final: FinalAnswer, afterMs: number): void {
    this.timers.later(afterMs, () => {
      const rec = this.records.get(ref);
      if (!rec) return;
      rec.answer = { ...rec.answer, ...toPartnerAnswer(ref, rec.op, final, rec.answer.partner_ref) };
      if (!rec.callbackUrl || this.faults.drop_callbacks) return;
      const url = rec.callbackUrl;
      const finalAnswer = rec.answer;
      this.timers.later(this.faults.callback_delay_ms, () => {
        void this.deliver(url, finalAnswer).then(() => {
          if (this.faults.out_of_order) void this.deliver(url, { ...finalAnswer, status: 'PENDING', message: 'stale: still processing' });
        });
      });
    });
  }

  /** The outcome table of CONTRACT §7 (the answerer's), plus the consent screen's state for the document locker. */
  async execute(op: Record_['op'], b: Record<string, unknown>): Promise<Answer> {
    const txnId = String(b.client_ref);
    const answerer = this.answerer;
    switch (op) {
      case 'signatureMatch':
        return answerer.execute({ operation: 'signature-match', txnId, input: String(b.input), name: b.name as string | undefined });
      case 'aadhaarInitialize': {
        const clientId = `dl_${randomBase62(24)}`;
        this.consents.set(clientId, { initRef: txnId, status: 'pending', redirectUrl: typeof b.redirect_url === 'string' ? b.redirect_url : null });
        return { status: 'pending', message: 'Awaiting the user’s consent', fields: { client_id: clientId, authorization_url: `${this.publicUrl}/consent/${clientId}` } };
      }
      case 'aadhaarDownload': {
        const c = this.consents.get(String(b.client_id));
        if (c?.status === 'pending') return { status: 'failed', message: 'Consent pending: the user has not yet authorized this request', fields: {} };
        if (c?.status === 'denied') return { status: 'failed', message: 'Consent denied: the user refused this request', fields: {} };
        return answerer.execute({ operation: 'doclocker-download-aadhaar', txnId, clientId: String(b.client_id), aadhaarNumber: b.aadhaar_number as string | undefined });
      }
      case 'mobileToBank':
        return answerer.execute({ operation: 'mobile-to-bank-account', txnId, mobile: String(b.mobile), accountNumber: b.account_number as string | undefined, ifsc: b.ifsc as string | undefined });
      case 'upiPay':
        return answerer.execute({ operation: 'upi-payment-status', txnId, vpa: String(b.vpa), amountPaise: Number(b.amount_paise) });
      case 'mobileRecharge':
        return answerer.execute({ operation: 'recharge-commission', txnId, mobile: String(b.mobile), operator: String(b.operator), type: 'prepaid', amountPaise: Number(b.amount_paise), commissionPaise: 0 });
      case 'dthRecharge':
        return answerer.execute({ operation: 'dth-recharge', txnId, subscriberId: String(b.subscriber_id), operator: String(b.operator), amountPaise: Number(b.amount_paise), commissionPaise: 0 });
      case 'accountVerify':
        return answerer.execute({ operation: 'account-verification', txnId, accountNumber: String(b.account_number), ifsc: String(b.ifsc), name: b.name as string | undefined });
      case 'vpaVerify':
        return answerer.execute({ operation: 'vpa-verification', txnId, vpa: String(b.vpa), name: b.name as string | undefined });
    }
  }

  /** Whether this call fails first (503, safe to retry) or hangs; consumes the counter. */
  misbehaves(): 'error' | 'stall' | null {
    if (this.faults.error_next > 0) {
      this.faults.error_next--;
      return 'error';
    }
    if (this.faults.timeout_next > 0) {
      this.faults.timeout_next--;
      return 'stall';
    }
    return null;
  }
}

function toPartnerAnswer(ref: string, op: Record_['op'], o: Answer | FinalAnswer, partnerRef: string): PartnerAnswer {
  const fields = o.fields as Record<string, unknown>;
  return {
    client_ref: ref,
    operation: op,
    status: o.status === 'success' ? 'SUCCESS' : o.status === 'failed' ? 'FAILURE' : 'PENDING',
    partner_ref: partnerRef,
    message: o.message,
    reference: (fields.utr as string | null | undefined) ?? null,
    data: toPartnerData(op, fields),
  };
}

/** POST <operation path>: idempotent by client_ref; a pending outcome settles later with a callback. */
function registerOperations(app: FastifyInstance, net: Network): void {
  for (const [op, path] of Object.entries(PARTNER_PATHS) as Array<[Record_['op'], string]>) {
    app.post(path, async (req, reply) => {
      const b = (req.body ?? {}) as Record<string, unknown>;
      if (typeof b.client_ref !== 'string' || !b.client_ref) return reply.code(400).send({ error: 'client_ref is required' });
      const m = net.misbehaves();
      if (m === 'error') return reply.code(503).send({ error: 'service unavailable', retryable: true });
      await net.timers.sleep(m === 'stall' ? net.faults.timeout_ms : net.latency(op));
      const known = net.records.get(b.client_ref);
      if (known) {
        known.calls++;
        return known.answer; // idempotent by client_ref
      }
      const outcome = await net.execute(op, b);
      const rec: Record_ = {
        op,
        answer: toPartnerAnswer(b.client_ref, op, outcome, `P${randomBase62(14).toUpperCase()}`),
        callbackUrl: typeof b.callback_url === 'string' ? b.callback_url : null,
        calls: 1,
      };
      net.records.set(b.client_ref, rec);
      if (outcome.settle) net.settleLater(b.client_ref, outcome.settle.final, outcome.settle.after_ms);
      return rec.answer;
    });
  }
}

/** Recharge pre-flight (the answerer's, in the wire format) and status enquiries. */
function registerReads(app: FastifyInstance, net: Network): void {
  app.get<{ Querystring: { mobile?: string } }>(LOOKUP_PATH, async (req, reply) => {
    const mobile = String(req.query.mobile ?? '');
    if (!/^[6-9][0-9]{9}$/.test(mobile)) return reply.code(400).send({ error: 'mobile must be a 10-digit Indian mobile number' });
    return net.answerer.lookup(mobile) satisfies WireLookup;
  });
  app.get<{ Querystring: { operator?: string; circle?: string } }>(PLANS_PATH, async (req) =>
    net.answerer.plans(String(req.query.operator ?? '')).map((p): WirePlan => ({ amount_paise: p.amountPaise, validity: p.validity, description: p.description, category: p.category })),
  );
  app.get<{ Params: { ref: string } }>('/v1/transactions/:ref', async (req, reply) => {
    const rec = net.records.get(req.params.ref);
    if (!rec) return reply.code(404).send({ error: 'unknown client_ref' });
    return rec.answer;
  });
}

/** The test controls: faults and how often each client_ref was called. */
function registerControls(app: FastifyInstance, net: Network): void {
  app.post('/_sim/faults', async (req) => {
    net.faults = { ...NO_FAULTS, ...(req.body as Partial<Faults>) };
    return net.faults;
  });
  app.get('/_sim/calls', async () => Object.fromEntries([...net.records].map(([ref, r]) => [ref, r.calls])));
}

export async function startPartnerSim(opts: SimOptions): Promise<{ app: FastifyInstance; url: string; close(): Promise<void> }> {
  const app = emulatorApp({ bodyLimit: 6 * 1024 * 1024 });
  const net = new Network(opts);
  registerOperations(app, net);
  registerReads(app, net);
  await registerConsentScreen(app, net.consents, (c, allow) =>
    net.settleLater(
      c.initRef,
      allow
        ? { status: 'success', message: 'The user authorized the document-locker request', fields: {} }
        : { status: 'failed', message: 'The user denied the document-locker request', fields: {} },
      0,
    ),
  );
  registerControls(app, net);
  const { origin } = await listen(app, { port: opts.port, host: opts.host ?? '127.0.0.1' });
  net.publicUrl = origin;
  return { app, url: origin, close: () => closeEmulator(app, net.timers) };
}
