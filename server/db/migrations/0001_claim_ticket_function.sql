-- The ticket claim in one round trip (issue 6, the rush): the whole claim is one statement, so the row lock
-- on the event is held only for the rest of this function and the commit, never across a round trip to the
-- app server. Answers one word the app turns into its message:
--   claimed | not_found | not_open | not_registered | already | sold_out
-- The guarantees are the same as the two conditional UPDATEs the app ran in a transaction before:
-- * the caller's row is locked first (a double tap waits here, then finds the ticket collected and stops
--   before it touches the counter);
-- * the counter moves only while tickets_sold < ticket_count, a condition PostgreSQL re-checks on the latest
--   row version after waiting for the lock, so no number of concurrent claims passes ticket_count;
-- * if the counter cannot move after the caller's row was updated, RAISE aborts the statement and so rolls
--   the caller's row back (no partial claim), and the app reads why; the CHECK constraint
--   events_tickets_within_count stays the backstop.
-- The reads before the updates only refuse early (sold out, closed, unknown): they lock nothing, and a
-- claim they let through is still decided by the conditional updates.
CREATE OR REPLACE FUNCTION claim_ticket(p_event_id integer, p_user_id integer, p_code text) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
  ev record;
  collected boolean;
BEGIN
  SELECT e.state, e.is_ticket_feature_enabled, e.tickets_sold, e.ticket_count INTO ev
    FROM events e WHERE e.id = p_event_id;
  IF NOT FOUND THEN
    RETURN 'not_found';
  END IF;
  IF ev.state <> 'TICKET_OPEN' OR NOT ev.is_ticket_feature_enabled THEN
    RETURN 'not_open';
  END IF;
  IF ev.tickets_sold >= ev.ticket_count THEN
    -- Sold out: a student who holds a ticket, or is not registered, is still told that first.
    SELECT p.ticket_collected INTO collected FROM participants p WHERE p.event_id = p_event_id AND p.user_id = p_user_id;
    RETURN CASE WHEN collected IS NULL THEN 'not_registered' WHEN collected THEN 'already' ELSE 'sold_out' END;
  END IF;

  UPDATE participants SET ticket_collected = true, ticket_code = p_code, ticket_collected_at = now()
    WHERE event_id = p_event_id AND user_id = p_user_id AND ticket_collected = false;
  IF NOT FOUND THEN
    SELECT p.ticket_collected INTO collected FROM participants p WHERE p.event_id = p_event_id AND p.user_id = p_user_id;
    RETURN CASE WHEN collected THEN 'already' ELSE 'not_registered' END;
  END IF;

  UPDATE events SET tickets_sold = tickets_sold + 1
    WHERE id = p_event_id AND tickets_sold < ticket_count AND state = 'TICKET_OPEN' AND is_ticket_feature_enabled;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'claim_ticket: the counter did not move' USING ERRCODE = 'P0001', HINT = 'claim_ticket_refused';
  END IF;
  RETURN 'claimed';
END
$$;
