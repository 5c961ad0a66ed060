// TEMPORARY, for operations/live.ts only (not edited on this branch): the partner history moved to
// transactions/partner-events.ts. Delete this file once the live runner imports that path.
export * from '../transactions/partner-events.js';
