// Owns running one admin command against a store and turning its result or error into
// { code, output }: exit code 0 with the command's JSON, 2 for a usage error (bad arguments, or an
// action's validation error), 1 for anything else. An action's ApiError also reports the HTTP status
// the console answers for the same error (errors.ts), so both adapters say the same thing.
import type { Db } from '../db/client.js';
import { ApiError } from '../errors.js';
import { COMMANDS, LedgerBreach, resolveCommand, UsageError, type CommandContext } from './commands.js';

export const USAGE = `usage: sangam <command>
  migrate
  accounts create --name NAME
  keys create --account ID --env sandbox|live [--name NAME]
  keys list --account ID
  keys roll KEY_ID --grace SECONDS          (default 86400; 0 = the old key stops now)
  keys revoke KEY_ID
  allowlist add|remove --account ID --env sandbox|live CIDR_OR_IP
  allowlist list --account ID --env sandbox|live
  approve|unapprove --account ID --operation SLUG|all
  accounts limits --account ID [--per-sec N|default] [--burst N|default]
  accounts consent --account ID [--require-live on|off]   (live calls must cite a consent_id)
  accounts sandbox-wallet --account ID [--show simulated|live]   (what sandbox keys' wallet read shows; default simulated)
  accounts verification-reuse --account ID [--window SECONDS|default]   (a payout's name check uses a vpa-verification this young; default 86400)
  consents verify RECEIPT [--public-key FILE]   (FILE: a JWK, a JWKS or PEM; default: this store's key; exit 1 if it does not verify)
  wallet topup --account ID --amount INR
  batches submit --account ID --env sandbox|live --operation SLUG [--client-batch-id ID] [--validate-only] FILE
                                            (FILE: .csv with a header naming the fields, or .ndjson)
  users create --email E --password P [--admin] [--account ID]   (a console user; an admin made here is effective at once)
  users list
  users approve-admin USER_ID [--as EMAIL]          (an admin made in the console waits for another admin's approval)
  users reject-admin USER_ID --reason R [--as EMAIL]
  ledger check                              (exit 1 on any breach)
  store vacuum                              (VACUUM (ANALYZE) of every table: the embedded store has no autovacuum)
  attention list [--reason overdue|review|flagged|proposed] [--limit N]   (what needs a person, with counts)
  attention show TXN_ID                     (a transaction with its whole partner history and resolutions)
  attention propose TXN_ID --action success|failed|reversal|dismiss --reason R [--evidence E] --as EMAIL
  attention approve|reject RESOLUTION_ID [--reason R] --as EMAIL
  float opening|fund --partner NAME --amount INR [--memo M]   (a prepaid partner's balance as read there; a top-up sent to it)
  float status                              (each prepaid partner's float as last checked, and the open drifts)
  float statement --partner NAME [--limit N]   (the float's movements as Sangam books them, newest first)
  float show DRIFT_ID                       (a drift with its candidates, resolutions and movements)
  float propose DRIFT_ID --action reversal|adjustment|dismiss [--txn TXN_ID] [--amount=INR] --reason R [--evidence E] --as EMAIL
  float approve|reject RESOLUTION_ID [--reason R] --as EMAIL   (an adjustment; a reversal is approved with attention approve)
                                            (money needs a second admin; --as names an admin console user)
  audit verify [--public-key PEM|BASE64] [--checkpoint]   (exit 1 at the first broken row of any chain or checkpoint)
  audit checkpoint                          (writes a signed checkpoint over every chain head)
  audit public-key                          (the key that verifies signed checkpoints)
  audit export --account ID [--format csv|ndjson|verifiable] [--environment sandbox|live] [--out FILE] [--from ISO] [--to ISO] [--operation SLUG] [--reference-id R]
  audit verify-export FILE --public-key PEM|BASE64|@FILE [--against OLDER_EXPORT]
                                            (offline: no store needed; exit 1 if the export does not verify)
  audit purge [--days N | --before ISO] [--identity-days N] [--bodies-days N]
                                            (deletes rows / erases content by data class; every chain stays verifiable)
  audit erase --account ID --environment sandbox|live --reference R   (erases one reference's content everywhere)
  pricing list
  pricing set --operation SLUG --fee INR
  partner-sim --port N --secret WHSEC [--latency-ms N] [--pending-ms N] [--host H]
  partner-sim --kind digilocker [--port N] [--client-id ID] [--client-secret S] [--redirect-uri URI]... [--pki-dir DIR] [--latency-ms N] [--host H]
  partner-sim --kind razorpayx [--port N] [--key-id ID] [--key-secret S] [--account-number N] [--webhook-secret S]
              [--webhook-url URL] [--pending-ms N] [--latency-ms N] [--balance-paise N] [--host H]
  partner-sim --kind cashfree-payouts [--port N] [--client-id ID] [--client-secret S] [--webhook-url URL] [--pending-ms N]
              [--latency-ms N] [--balance-paise N] [--fundsource-id ID] [--rate-limit-per-minute N] [--host H]
  partner-sim --kind cashfree-verification [--port N] [--client-id ID] [--client-secret S] [--pending-ms N] [--latency-ms N] [--host H]
  partner-sim --kind surepass-signature [--port N] [--token JWT] [--comparator-path P] [--threshold N] [--max-bytes N] [--latency-ms N] [--host H]
  partner-sim --kind setu-recharge [--port N] [--client-id ID] [--client-secret S] [--product-instance-id UUID]
              [--webhook-url URL] [--pending-ms N] [--latency-ms N] [--wallet-paise N] [--host H]
  partner-sim --kind setu-dth [--port N] [--client-id ID] [--client-secret S] [--partner-id N]
              [--webhook-url URL] [--pending-ms N] [--latency-ms N] [--host H]`;

/** Without a context, a command that settles money (attention approve) has no settlement to use. */
const NO_CONTEXT: CommandContext = {
  settlement: () => Promise.reject(new Error('this command needs a server\'s settlement wiring (run it from the sangam CLI)')),
};

/** `ctx`: what the caller can lend a command beyond the store (the CLI's or the server's settlement). */
export async function runCommand(db: Db, argv: string[], ctx: CommandContext = NO_CONTEXT): Promise<{ code: number; output: Record<string, unknown> }> {
  const cmd = resolveCommand(argv);
  if (!cmd) return { code: 2, output: { error: `unknown command: ${argv.join(' ')}`, usage: USAGE } };
  try {
    return { code: 0, output: await COMMANDS[cmd.name]!(db, cmd.args, ctx) };
  } catch (err) {
    if (err instanceof LedgerBreach) return { code: 1, output: err.report };
    if (err instanceof UsageError) return { code: 2, output: { error: err.message, usage: USAGE } };
    if (err instanceof ApiError) return apiErrorOutput(err);
    return { code: 1, output: { error: (err as Error).message } };
  }
}

function apiErrorOutput(err: ApiError): { code: number; output: Record<string, unknown> } {
  const field = err.extra.errors?.[0];
  if (err.code === 'validation') return { code: 2, output: { error: field?.message ?? err.message, status: err.http, errors: err.extra.errors ?? [], usage: USAGE } };
  return { code: 1, output: { error: err.message, status: err.http } };
}
