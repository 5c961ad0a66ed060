-- The audit chain's append done by the store, so that a group commit can lock a chain head, link its
-- rows to it, insert them and move the head in one statement with no transaction around it
-- (src/audit/chain.ts chainedCtes; issue #28: five round trips per sandbox batch became one).
--
-- Given the rows' digests in chain order, audit_append takes the first chain head nobody holds (as
-- lockHead does: FOR UPDATE SKIP LOCKED, held until the statement's transaction ends), moves it past
-- the rows, and answers each row's place and link: (link_n, its 1-based position in `digests`;
-- link_chain; link_seq; link_prev; link_hash), where link_hash = SHA-256(link_prev "\n" digest) in hex,
-- the formula of src/audit/hashing.ts linkHash. When every head is held by someone else it fails with
-- lock_not_available (55P03): the writer then appends the slow way, in a transaction that waits for a
-- head. No digests, nothing locked and nothing answered.
CREATE FUNCTION audit_append(digests text[])
RETURNS TABLE (link_n integer, link_chain smallint, link_seq bigint, link_prev text, link_hash text)
LANGUAGE plpgsql AS $$
DECLARE
  head record;
  digest text;
BEGIN
  IF coalesce(cardinality(digests), 0) = 0 THEN
    RETURN;
  END IF;
  SELECT h.chain, h.seq, h.hash INTO head FROM audit_heads h ORDER BY h.chain LIMIT 1 FOR UPDATE SKIP LOCKED;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'every audit chain head is held' USING ERRCODE = 'lock_not_available';
  END IF;
  link_n := 0;
  link_chain := head.chain;
  link_seq := head.seq;
  link_hash := head.hash;
  FOREACH digest IN ARRAY digests LOOP
    link_n := link_n + 1;
    link_seq := link_seq + 1;
    link_prev := link_hash;
    link_hash := encode(sha256(convert_to(link_prev || E'\n' || digest, 'UTF8')), 'hex');
    RETURN NEXT;
  END LOOP;
  UPDATE audit_heads SET seq = link_seq, hash = link_hash WHERE chain = link_chain;
END
$$;
