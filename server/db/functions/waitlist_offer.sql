-- Offers the free places of an event to the first in line, for p_hold_minutes; answers the students offered.
-- The caller holds the event's row lock (FOR UPDATE), so two calls for one event never offer one place twice.
-- Each offer is a message in the student's inbox (inbox_messages_push queues the push for those with a subscription).
-- Migrations: 0006, 0020, 0023 (the last holds this definition).
CREATE OR REPLACE FUNCTION waitlist_offer(p_event_id integer, p_hold_minutes integer) RETURNS integer[]
LANGUAGE plpgsql AS $$
DECLARE
  ev record;
  free integer;
  offered integer[];
BEGIN
  SELECT e.id, e.name, e.state, e.is_ticket_feature_enabled, e.ticket_count, e.tickets_sold, e.tickets_held INTO ev FROM events e WHERE e.id = p_event_id;
  IF NOT FOUND OR ev.state <> 'TICKET_OPEN' OR NOT ev.is_ticket_feature_enabled THEN
    RETURN '{}';
  END IF;
  -- Places held for payment (issue 35) are taken as much as tickets are.
  free := ev.ticket_count - ev.tickets_sold - ev.tickets_held - (SELECT count(*) FROM waitlist w WHERE w.event_id = p_event_id AND w.offered_at IS NOT NULL);
  IF free <= 0 THEN
    RETURN '{}';
  END IF;
  WITH next AS (
    SELECT w.id FROM waitlist w WHERE w.event_id = p_event_id AND w.offered_at IS NULL ORDER BY w.id LIMIT free
  ), upd AS (
    UPDATE waitlist w SET offered_at = now(), offer_expires_at = now() + make_interval(mins => p_hold_minutes)
      FROM next WHERE w.id = next.id
      RETURNING w.user_id, w.offer_expires_at
  ), queued AS (
    INSERT INTO inbox_messages (user_id, title, body, url, tag)
      SELECT upd.user_id, 'A ticket is held for you',
             'Claim your ticket for ' || ev.name || ' by ' || to_char(upd.offer_expires_at AT TIME ZONE 'Asia/Kolkata', 'FMHH12:MI AM') || '.',
             '/event-details/' || p_event_id, 'offer-' || p_event_id
        FROM upd
  )
  SELECT coalesce(array_agg(upd.user_id), '{}') INTO offered FROM upd;
  RETURN offered;
END
$$;
