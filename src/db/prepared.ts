// Owns which statements the embedded engine keeps prepared (db/pglite-engine.ts). A statement marked
// here is parsed and planned once and then only bound and executed; PostgreSQL then plans it generically
// after its first five runs. That is right for a statement that always carries one call's rows (a lone
// live call's recovery point and outcome: 1.5–2.2 ms through PGlite's query(), 0.2–0.4 ms prepared,
// issue #42) and wrong for a group commit's batch of many, whose generic plan the engine estimated
// cheaper and ran slower (sandbox UPI under load: 1,850–2,070 → 930–1,090 req/s). So only a writer
// that knows its statement holds one call marks it. A PostgreSQL server prepares every statement of
// few parameters (db/client.ts) whatever the mark (measured without a loss on its batches).
import { sql, type RawBuilder } from 'kysely';

/** The mark the engine looks for at the start of a statement's text. */
export const PREPARED_MARK = '/* prepared */';

/** `statement` marked to be kept prepared by the embedded engine when `one` (it carries one call's rows). */
export const preparedIf = <T>(one: boolean, statement: RawBuilder<T>): RawBuilder<T> => (one ? sql<T>`${sql.raw(PREPARED_MARK)} ${statement}` : statement);
