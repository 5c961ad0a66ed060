// Owns the one set of admin actions the CLI (admin/commands.ts, also behind the admin socket) and the
// console (routes/console/api/) both call. Each takes an actor and does its change and the change's ADMIN
// audit row in one transaction (run.ts); errors are ApiErrors from the closed list in errors.ts, which
// each adapter maps in its one place (http/error-handler.ts; admin/run.ts for exit codes).
export * as accounts from './accounts.js';
export * as allowlist from './allowlist.js';
export * as attention from './attention.js';
export * as float from './float.js';
export * as goLive from './go-live.js';
export * as batches from './batches.js';
export * as keys from './keys.js';
export * as pricing from './pricing.js';
export * as users from './users.js';
export * as wallet from './wallet.js';
export { consoleActor, type Actor } from './run.js';
