// Owns the account endpoints a client's key can read: the wallet.
import type { FastifyInstance } from 'fastify';
import { okEnvelope } from '../http/envelope.js';
import { paiseToInr } from '../money.js';
import type { Services } from '../services.js';
import { getWallet } from './store.js';

export function registerAccountRoutes(app: FastifyInstance, services: Services): void {
  app.get(
    '/api/v1/account/wallet',
    { schema: { summary: 'Wallet balance (INR): available and held by pending operations', tags: ['Account'] } },
    async (req) => {
      const w = await getWallet(services.db, req.auth!.accountId);
      return okEnvelope('Wallet balance', { balance: paiseToInr(w.balance_paise), held: paiseToInr(w.held_paise), currency: 'INR' });
    },
  );
}
