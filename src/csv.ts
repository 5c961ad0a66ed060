// Owns how Sangam writes CSV: every CSV it serves (a batch's results, the audit export, the wallet
// statement) is a csvWriter, so a cell that a spreadsheet would run as a formula is neutralised in one
// place. OWASP's rule ("CSV Injection"): a text cell starting with =, +, -, @, a tab or a carriage
// return gets a single quote in front, which spreadsheets show as text and never evaluate. Cells Sangam
// itself writes from numbers (amounts, statuses, latencies) are left as numbers: a negative amount is
// -12.5, not '-12.5 (docs/AUDIT-EXPORT.md, "CSV and spreadsheets"). Reading a value back: a cell that
// starts with ' followed by one of those characters had the quote added (readCell undoes it).
import { stringify, type Stringifier } from 'csv-stringify';

/** What a spreadsheet may take for the start of a formula (OWASP). */
const FORMULA_START = /^[=+\-@\t\r]/;

/** A text cell as written: with a leading ' when a spreadsheet would read it as a formula. */
export const neutralise = (text: string): string => (FORMULA_START.test(text) ? `'${text}` : text);

/** A text cell as it was before neutralise (for a program reading Sangam's CSV back). */
export const readCell = (cell: string): string => (cell.startsWith("'") && FORMULA_START.test(cell.slice(1)) ? cell.slice(1) : cell);

/** A CSV stream of objects with these columns and a header row; booleans as true/false. */
export function csvWriter(columns: readonly string[]): Stringifier {
  return stringify({
    header: true,
    columns: [...columns],
    cast: {
      string: (s) => neutralise(s),
      boolean: (b) => (b ? 'true' : 'false'),
      // An object (none today) is written as JSON text, which is text too.
      object: (o) => neutralise(JSON.stringify(o)),
    },
  });
}
