// Owns the account endpoints a client's key can read: the wallet and its statement. The statement
// lists live money (top-ups, debits of live operations, their references), so a sandbox key reads an
// empty one, as it reads no live transaction. A live key reads the account's one wallet; a sandbox key
// reads a simulated wallet (`simulated: true`, a fixed balance nothing moves) unless the operator opted
// the account in to showing sandbox keys the live one (CONTRACT §8, accounts/sandbox-wallet.ts).
import type { FastifyInstance } from 'fastify';
import { okEnvelope } from '../../../../http/envelope.js';
import { paiseToInr } from '../../../../money.js';
import type { Db } from '../../../../db/client.js';
import { getWallet } from '../../../../accounts/store.js';
import { readSandboxWallet, SANDBOX_BALANCE_PAISE } from '../../../../accounts/sandbox-wallet.js';
import { statementPage, StatementCursor } from '../../../../accounts/statement.js';
import { Type } from '@sinclair/typebox';
import { Envelope, Nullable, Page, responses } from '../../../../http/responses.js';

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

export function registerAccountRoutes(app: FastifyInstance, services: { db: Db }): void {
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
              simulated: Type.Optional(
                Type.Literal(true, {
                  description: "Present (true) on a sandbox key's read: the simulated sandbox wallet, a fixed ₹10,00,000.00 with nothing held that no live movement and no sandbox call changes. Absent when the key is live, or when the operator opted the account in to showing sandbox keys the live wallet",
                }),
              ),
            }),
          ),
          { errors: [404] },
        ),
      },
    },
    async (req) => {
      const { accountId, environment } = req.auth!;
      if (environment === 'sandbox' && (await readSandboxWallet(services.db, accountId)).sandbox_wallet === 'simulated') {
        return okEnvelope('Sandbox wallet: simulated, a fixed balance that nothing moves; a live key reads the live wallet', {
          balance: paiseToInr(SANDBOX_BALANCE_PAISE),
          held: 0,
          currency: 'INR',
          simulated: true,
        });
      }
      const w = await getWallet(services.db, accountId);
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
