// The money boundary (issue #39): inside Sangam every amount is integer paise; INR numbers exist only
// where a request is read or an answer is written. paiseToInr and inrToPaise (src/money.ts) may appear
// only in the modules below, each with the reason it converts, and in route registrars (a room's HTTP
// face: a routes.ts or a file under a routes/ folder, as test/layers.test.ts names the `routes` room; it
// reads INR bodies and answers INR). Connectors report
// amounts in paise (MoneyResult) and never convert; operations, settlement and the runners neither.
// Reads the TypeScript sources (not the build). A partner's own amounts (Cashfree's and Setu's rupees)
// are the partner's shape: its transformers convert them to paise with arithmetic of their own, which
// this guard does not judge.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src');

/** Where INR meets paise, outside the route registrars, and why (paths relative to src/). */
export const BOUNDARY: Record<string, string> = {
  'money.ts': 'the conversion itself',
  'contract/fields.ts': "the request schema: an operation's Amount field becomes paise (paiseOf)",
  'providers/answer.ts': "the answer builder: a connector's typed result becomes the public answer's fields, in INR",
  'admin/commands.ts': 'the CLI: reads INR arguments and prints INR',
  'admin/actions/wallet.ts': "a top-up's audit detail shows the amount in INR beside its paise",
  'admin/actions/float.ts': "a float movement's audit detail and a drift's resolution note show INR",
  'attention/queue.ts': "the attention queue's items answer amounts and holds in INR",
  'attention/float.ts': "a float drift's attention item answers its drift in INR",
  'ledger/ledger.ts': "the statement's rows answer in INR, and a refusal's message names rupees",
  'batches/store.ts': "a batch refused for the wallet's balance names rupees in its message",
};

const CONVERSION = /\b(paiseToInr|inrToPaise)\b/;

function sources(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sources(full);
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [path.relative(SRC, full)] : [];
  });
}

/** Source files that name a conversion, tests included (a connector's test converts nothing either). */
export function converting(files = sources(), read = (f: string) => readFileSync(path.join(SRC, f), 'utf8')): string[] {
  return files.filter((f) => CONVERSION.test(read(f)));
}

const registrar = (file: string) => !file.endsWith('.test.ts') && (path.basename(file) === 'routes.ts' || file.split('/').slice(0, -1).includes('routes'));
const allowed = (file: string) => file in BOUNDARY || registrar(file);

describe('money boundary: INR only where a request is read or an answer written', () => {
  it('no paiseToInr or inrToPaise outside the boundary modules and the route registrars', () => {
    const outside = converting().filter((f) => !allowed(f));
    assert.deepEqual(outside, [], `INR conversions outside the money boundary (connectors report paise; providers/answer.ts converts):\n${outside.join('\n')}`);
  });

  it('every boundary module listed still converts (the list stays exact)', () => {
    const found = new Set(converting());
    const stale = Object.keys(BOUNDARY).filter((f) => !found.has(f));
    assert.deepEqual(stale, [], `listed in BOUNDARY but converting nothing: ${stale.join(', ')}`);
  });

  it('finds a conversion in a connector (the check itself)', () => {
    const files = ['providers/razorpayx/transformers.ts', 'providers/answer.ts', 'console/routes/admin.ts', 'operations/live-runner.ts'];
    const text: Record<string, string> = {
      'providers/razorpayx/transformers.ts': 'amount: paiseToInr(p.amount)',
      'providers/answer.ts': 'amount: paiseToInr(r.amountPaise)',
      'console/routes/admin.ts': 'inrToPaise(req.body.amount)',
      'operations/live-runner.ts': 'moneyFields({ amountPaise })',
    };
    assert.deepEqual(converting(files, (f) => text[f]!).filter((f) => !allowed(f)), ['providers/razorpayx/transformers.ts']);
  });
});
