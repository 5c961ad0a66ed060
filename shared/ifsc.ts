// Owns the IFSC directory: which codes exist and which bank each belongs to, from Razorpay's `ifsc`
// package (RBI's NEFT/RTGS lists and NPCI's member lists, compiled offline). It reads the package's
// JSON files directly rather than its index.js, which also loads an HTTP client for its online
// lookups; nothing here touches the network. The directory has no branch names (those need the
// online lookup), so `branch` can only come from a live partner's answer. Shared: the server's contract
// checks and connectors, the sandbox's people and the Cashfree verification emulator all read it.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
/** Bank code → its branch codes: 6 characters, or a number when they are all digits ("000123" → 123). */
const BRANCHES = require('ifsc/src/IFSC.json') as Record<string, ReadonlyArray<string | number>>;
const BANK_NAMES = require('ifsc/src/banknames.json') as Record<string, string>;
/** IFSC → bank code of the bank that uses a branch leased from another (NPCI's sub-member list). */
const SUBLETS = require('ifsc/src/sublet.json') as Record<string, string>;
/** Bank code → [IFSC prefix, bank code (4 characters) or bank name], for whole ranges leased out. */
const CUSTOM_SUBLETS = new Map<string, Array<[string, string]>>();
for (const [prefix, to] of Object.entries(require('ifsc/src/custom-sublets.json') as Record<string, string>)) {
  const bank = prefix.slice(0, 4);
  CUSTOM_SUBLETS.set(bank, [...(CUSTOM_SUBLETS.get(bank) ?? []), [prefix, to]]);
}

/** The shape CONTRACT §3 gives an IFSC; only a code of this shape is looked up. */
export const IFSC_SHAPE = /^[A-Z]{4}0[A-Z0-9]{6}$/;

const branchSets = new Map<string, ReadonlySet<string>>();
const toBranch = (b: string | number) => (typeof b === 'number' ? String(b).padStart(6, '0') : b);

function branchSet(bank: string): ReadonlySet<string> | undefined {
  let set = branchSets.get(bank);
  if (!set && Object.hasOwn(BRANCHES, bank)) branchSets.set(bank, (set = new Set(BRANCHES[bank]!.map(toBranch))));
  return set;
}

/** Whether `code` is a branch in the directory (the package's `validate`, with set lookups). */
export function ifscExists(code: string): boolean {
  if (!IFSC_SHAPE.test(code)) return false;
  return branchSet(code.slice(0, 4))?.has(code.slice(5)) ?? false;
}

/**
 * The name of the bank that operates branch `code`, or null for a code not in the directory. A sublet
 * branch (a code of a large bank leased to a co-operative bank) names the bank that uses it, as the
 * package's other language bindings do.
 */
export function bankNameOf(code: string): string | null {
  if (!ifscExists(code)) return null;
  const sublet = SUBLETS[code];
  if (sublet !== undefined) return BANK_NAMES[sublet] ?? null;
  const custom = CUSTOM_SUBLETS.get(code.slice(0, 4))?.find(([prefix]) => code.startsWith(prefix))?.[1];
  if (custom !== undefined) return custom.length === 4 ? (BANK_NAMES[custom] ?? null) : custom;
  return BANK_NAMES[code.slice(0, 4)] ?? null;
}

const ownBranches = new Map<string, readonly string[]>();

/**
 * The bank's own branches: codes it operates itself (not leased to another bank), numeric ones only
 * when it has any, since a bank's letter codes are often its service desks or leased ranges. Sorted,
 * so a seeded pick stays the same for as long as the directory does.
 */
export function ownBranchesOf(bank: string): readonly string[] {
  let list = ownBranches.get(bank);
  if (!list) {
    const name = BANK_NAMES[bank];
    const codes = [...(branchSet(bank) ?? [])].map((b) => `${bank}0${b}`).filter((c) => bankNameOf(c) === name);
    const numeric = codes.filter((c) => /^\d{6}$/.test(c.slice(5)));
    ownBranches.set(bank, (list = (numeric.length ? numeric : codes).sort()));
  }
  return list;
}
