-- Claims for one event in batches (issue 6, the rush): the server sends the claims that arrive while the
-- previous batch is in the database as one call, so N tickets cost one lock on the event row and one commit
-- (one WAL flush) instead of N commits in a row behind that lock, which is what the single claim_ticket()
-- of 0001 queued on: the claims that sell tickets are serialised by the event's counter, each waiting for the
-- previous one's flush.
--
-- Answers one word per claim, in the order given:
--   claimed | not_found | not_open | not_registered | already | sold_out
-- Guarantees:
-- * while tickets are left, the event row is locked FOR UPDATE before any participant row (one lock order
--   for every claim, so batches from several instances queue instead of deadlocking), and the counter is
--   then read and moved only under that lock: no number of batches passes ticket_count;
-- * one student claims at most once: the participant row is updated only where ticket_collected is false
--   (the same student twice in a batch, or in two batches, gets 'already');
-- * the counter moves only with a participant row, in the same statement: if the conditional counter update
--   ever finds nothing (it cannot while the lock is held), RAISE rolls the whole batch back and the server
--   retries each claim alone; the CHECK constraint events_tickets_within_count stays the backstop.
-- The read before the lock only refuses early (unknown event, closed, sold out): it locks nothing.
DROP FUNCTION IF EXISTS claim_ticket(integer, integer, text);
--> statement-breakpoint
CREATE OR REPLACE FUNCTION claim_tickets(p_event_id integer, p_user_ids integer[], p_codes text[]) RETURNS text[]
LANGUAGE plpgsql AS $$
DECLARE
  ev record;
  n integer := coalesce(cardinality(p_user_ids), 0);
  statuses text[] := '{}';
  collected boolean;
  i integer;
BEGIN
  IF n <> coalesce(cardinality(p_codes), 0) THEN
    RAISE EXCEPTION 'claim_tickets: % students but % codes', n, cardinality(p_codes);
  END IF;
  SELECT e.state, e.is_ticket_feature_enabled, e.tickets_sold, e.ticket_count INTO ev
    FROM events e WHERE e.id = p_event_id;
  IF NOT FOUND THEN
    RETURN array_fill('not_found'::text, ARRAY[n]);
  END IF;
  IF ev.tickets_sold < ev.ticket_count AND ev.state = 'TICKET_OPEN' AND ev.is_ticket_feature_enabled THEN
    -- Tickets left: take the event row, then decide every claim of the batch against its counter.
    SELECT e.state, e.is_ticket_feature_enabled, e.tickets_sold, e.ticket_count INTO ev
      FROM events e WHERE e.id = p_event_id FOR UPDATE;
  END IF;
  IF ev.state <> 'TICKET_OPEN' OR NOT ev.is_ticket_feature_enabled THEN
    RETURN array_fill('not_open'::text, ARRAY[n]);
  END IF;

  FOR i IN 1 .. n LOOP
    IF ev.tickets_sold >= ev.ticket_count THEN
      -- Sold out: a student who holds a ticket, or is not registered, is still told that first.
      SELECT p.ticket_collected INTO collected FROM participants p WHERE p.event_id = p_event_id AND p.user_id = p_user_ids[i];
      statuses := statuses || CASE WHEN collected IS NULL THEN 'not_registered' WHEN collected THEN 'already' ELSE 'sold_out' END;
      CONTINUE;
    END IF;
    UPDATE participants SET ticket_collected = true, ticket_code = p_codes[i], ticket_collected_at = now()
      WHERE event_id = p_event_id AND user_id = p_user_ids[i] AND ticket_collected = false;
    IF NOT FOUND THEN
      SELECT p.ticket_collected INTO collected FROM participants p WHERE p.event_id = p_event_id AND p.user_id = p_user_ids[i];
      statuses := statuses || CASE WHEN collected THEN 'already' ELSE 'not_registered' END;
      CONTINUE;
    END IF;
    UPDATE events SET tickets_sold = tickets_sold + 1
      WHERE id = p_event_id AND tickets_sold < ticket_count AND state = 'TICKET_OPEN' AND is_ticket_feature_enabled;
    IF NOT FOUND THEN
      RAISE EXCEPTION 'claim_tickets: the counter did not move' USING ERRCODE = 'P0001', HINT = 'claim_ticket_refused';
    END IF;
    ev.tickets_sold := ev.tickets_sold + 1;
    statuses := statuses || 'claimed'::text;
  END LOOP;
  RETURN statuses;
END
$$;
