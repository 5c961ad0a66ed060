// Owns the account endpoints a client's key can read: the wallet and its statement. The statement
// lists live money (top-ups, debits of live operations, their references), so a sandbox key reads an
// empty one, as it reads no live transaction. The wallet's balance is the account's one wallet for
// every key (CONTRACT §8), unless SANGAM_SANDBOX_WALLET=simulated gives sandbox keys a fixed,
// simulated balance instead (docs/DECISIONS.md).
import type { FastifyInstance } from 'fastify';
import { okEnvelope } from '../http/envelope.js';
import { paiseToInr } from '../money.js';
import type { Db } from '../db/client.js';
import type { Config } from '../config.js';
import { getWallet } from './store.js';
import { statementPage, StatementCursor } from './statement.js';
import { Type } from '@sinclair/typebox';
import { Envelope, Nullable, Page, responses } from '../http/responses.js';

/** The simulated sandbox wallet's balance: ₹1,00,000, never moved. */
const SANDBOX_BALANCE_PAISE = 10_000_000;

const Inr = (description: string) => Type.Number({ description: `${description}, INR` });

const StatementEntry = Type.Object({
  id: Type.Integer(),
  created_at: Type.String({ format: 'date-time' }),
  kind: Type.String({ description: 'What the ledger posting was (topup for a top-up)' }),
  txn_id: Nullable(Type.String(), { description: 'The transaction behind the entry (a reversal: the transaction it reverses); null for a top-up' }),
  reference_id: Nullable(Type.String(), { description: "That transaction's reference_id, as the client sent it; null for a top-up" }),
  operation: Nullable(Type.String(), { description: "That transaction's operation slug; null for a top-up" }),
  status: Nullable(Type.String({ description: "That transaction's status now: success, pending or failed" }), { description: 'null for a top-up' }),
  amount: Inr('Signed: credits positive, debits negative'),
  balance_after: Inr("The wallet's total (available + held) after the entry"),
  memo: Nullable(Type.String()),
  reason: Type.String({ description: 'Why the wallet moved: a top-up, what a debit paid for (a failed verification pays the fee of a completed check), what a reversal gave back' }),
});

export function registerAccountRoutes(app: FastifyInstance, services: { db: Db; config: Pick<Config, 'sandboxWallet'> }): void {
  app.get(
    '/api/v1/account/wallet',
    {
      schema: {
        operationId: 'getWallet',
        summary: 'Wallet balance (INR): available and held by pending operations',
        tags: ['Account'],
        response: responses(
          Envelope(
            Type.Object({
              balance: Inr('Available'),
              held: Inr('Reserved by pending operations'),
              currency: Type.Literal('INR'),
              simulated: Type.Optional(Type.Literal(true, { description: 'Present on a sandbox key when the server gives the sandbox a simulated wallet (SANGAM_SANDBOX_WALLET=simulated): a fixed balance that sandbox calls never move' })),
            }),
          ),
          { errors: [404] },
        ),
      },
    },
    async (req) => {
      if (req.auth!.environment === 'sandbox' && services.config.sandboxWallet === 'simulated') {
        return okEnvelope('Sandbox wallet: simulated, a fixed balance that sandbox calls never move; a live key reads the live wallet', {
          balance: paiseToInr(SANDBOX_BALANCE_PAISE),
          held: 0,
          currency: 'INR',
          simulated: true,
        });
      }
      const w = await getWallet(services.db, req.auth!.accountId);
      return okEnvelope('Wallet balance', { balance: paiseToInr(w.balance_paise), held: paiseToInr(w.held_paise), currency: 'INR' });
    },
  );

  app.get<{ Querystring: { limit?: number; cursor?: string } }>(
    '/api/v1/account/statement',
    {
      schema: {
        operationId: 'getStatement',
        summary: 'Wallet statement: ledger entries, newest first (top-ups, debits), with the running total; a sandbox key has none (the sandbox moves no money)',
        tags: ['Account'],
        querystring: Type.Object({
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 50 })),
          cursor: Type.Optional(StatementCursor),
        }),
        response: responses(Envelope(Page(StatementEntry, StatementCursor)), { errors: [404] }),
      },
    },
    async (req) => {
      const { accountId, environment } = req.auth!;
      const page = await statementPage(services.db, accountId, req.query.limit ?? 50, req.query.cursor, environment);
      return okEnvelope(environment === 'sandbox' ? 'Sandbox statement: the sandbox moves no money, so it has no entries; a live key reads the live statement' : 'Wallet statement', page);
    },
  );
}
