-- audit_append (migration 0024) waits for a head instead of failing when every head is held, as
-- lockHead in src/audit/chain.ts did (for a head picked at random, so waiters spread out), and takes
-- `mine`: the chain a transaction already holds, so that a transaction appending twice stays on it
-- (never holding two heads, so two such transactions cannot deadlock on each other). With every
-- append one statement, a transaction's append (an admin change, a batch of live outcomes) is one
-- round trip instead of two, and the group commit's one-statement write needs no fallback.
DROP FUNCTION audit_append(text[]);
CREATE FUNCTION audit_append(digests text[], mine smallint)
RETURNS TABLE (link_n integer, link_chain smallint, link_seq bigint, link_prev text, link_hash text)
LANGUAGE plpgsql AS $$
DECLARE
  head record;
  digest text;
BEGIN
  IF coalesce(cardinality(digests), 0) = 0 THEN
    RETURN;
  END IF;
  IF mine IS NOT NULL THEN
    SELECT h.chain, h.seq, h.hash INTO head FROM audit_heads h WHERE h.chain = mine FOR UPDATE;
  ELSE
    -- The lowest head nobody holds; a lone writer stays on chain 0, concurrent ones spill over.
    SELECT h.chain, h.seq, h.hash INTO head FROM audit_heads h ORDER BY h.chain LIMIT 1 FOR UPDATE SKIP LOCKED;
    IF NOT FOUND THEN
      -- Every head is held by another transaction: wait for one picked at random. Once granted, FOR
      -- UPDATE reads its newest committed version, so the chain never forks.
      SELECT h.chain, h.seq, h.hash INTO head FROM audit_heads h
      WHERE h.chain = (SELECT r.chain FROM audit_heads r ORDER BY random() LIMIT 1) FOR UPDATE;
    END IF;
  END IF;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'audit_heads is empty: the audit chain migration did not run';
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
