-- The draw of one event, set-based: every entrant's key in one pass (the key kept at entry, or HMAC-SHA256 built
-- from the core sha256() with the padded keys the server passes in), sorted once bytewise (COLLATE "C"); the first
-- `free` eligible entrants (registered, no ticket, not in a team below min_ppt) get their tickets in one UPDATE
-- (codes from the server's CSPRNG, tickets_sold moved once), the other eligible ones join the waitlist in key order,
-- a message in every placed entrant's inbox (inbox_messages_push queues the push for those with a subscription),
-- and the published record (every entrant's key) in fair_draws. Runs only
-- for a due, undrawn TICKET_OPEN event, whose row it locks; fair_drawn_at set here makes a second call find nothing.
-- On a paid event (issue 35) winners get their places held for payment (payments rows) instead of tickets.
-- Answers {entrants, winners, waitlisted}, or NULL. Each entrant's outcome (WON, WAITLISTED, NOT_ELIGIBLE) is kept in
-- fair_entrants.outcome; a key is HMAC-SHA256(seed, '<user id>:<nonce>'), or of the user id alone for an entry older
-- than the nonce (computed here only for an entry whose key was not kept at entry).
-- Migrations: 0011, 0013, 0018, 0020, 0023 (the last holds this definition).
CREATE OR REPLACE FUNCTION fair_draw(p_event_id integer, p_ipad bytea, p_opad bytea, p_codes text[]) RETURNS integer[]
LANGUAGE plpgsql AS $$
DECLARE
  ev record;
  free integer;
  counts integer[];
BEGIN
  SELECT e.id, e.name, e.ticket_count, e.tickets_sold, e.tickets_held, e.fair_seed, e.min_ppt, e.fee, e.pay_within_minutes INTO ev FROM events e
    WHERE e.id = p_event_id AND e.state = 'TICKET_OPEN' AND e.is_ticket_feature_enabled
      AND e.fair_draw_at <= now() AND e.fair_drawn_at IS NULL
    FOR UPDATE;
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  free := ev.ticket_count - ev.tickets_sold - ev.tickets_held - (SELECT count(*) FROM waitlist w WHERE w.event_id = p_event_id AND w.offered_at IS NOT NULL);
  free := greatest(0, least(free, coalesce(cardinality(p_codes), 0)));
  -- The winners' tickets (or, on a paid event, their held places) are counted once below, not row by row by the
  -- participants' and payments' triggers.
  PERFORM set_config('campus.bulk_tickets', 'on', true);
  PERFORM set_config('campus.bulk_holds', 'on', true);
  WITH sized AS (
    -- Team sizes, only where min_ppt asks for them (a one-time false filter otherwise: nothing read).
    SELECT m.team_id, count(*) AS members FROM participants m
      WHERE ev.min_ppt > 1 AND m.event_id = p_event_id AND m.team_id IS NOT NULL GROUP BY m.team_id
  ), keyed AS MATERIALIZED (
    SELECT f.user_id,
           coalesce(f.key, encode(sha256(p_opad || sha256(p_ipad || convert_to(f.user_id::text || coalesce(':' || f.nonce, ''), 'UTF8'))), 'hex')) COLLATE "C" AS key,
           (p.user_id IS NOT NULL AND NOT p.ticket_collected
             AND (ev.min_ppt <= 1 OR p.team_id IS NULL OR coalesce(s.members, 0) >= ev.min_ppt)) AS eligible
      FROM fair_entrants f
      LEFT JOIN participants p ON p.event_id = f.event_id AND p.user_id = f.user_id
      LEFT JOIN sized s ON s.team_id = p.team_id
      WHERE f.event_id = p_event_id
  ), sorted AS MATERIALIZED (
    SELECT k.user_id, k.key, k.eligible, row_number() OVER (ORDER BY k.key) AS at FROM keyed k
  ), placed AS MATERIALIZED (
    SELECT s.user_id, s.key, row_number() OVER (ORDER BY s.at) AS place FROM sorted s WHERE s.eligible
  ), ticketed AS (
    UPDATE participants p SET ticket_collected = true, ticket_code = p_codes[pl.place::int], ticket_collected_at = now()
      FROM placed pl
      WHERE ev.fee = 0 AND p.event_id = p_event_id AND p.user_id = pl.user_id AND pl.place <= free AND NOT p.ticket_collected
      RETURNING p.user_id
  ), held AS (
    -- A paid event (issue 35): a winner's place is held for its payment; unpaid at pay_by, it goes to the waitlist,
    -- whose order is the draw's. The winner's code becomes the hold's reference, never a ticket's code.
    INSERT INTO payments (event_id, user_id, participant_id, kind, amount, reference, pay_by)
      SELECT p_event_id, p.user_id, p.id, 'TICKET', ev.fee * 100, 'CE' || p_codes[pl.place::int], now() + make_interval(mins => ev.pay_within_minutes)
        FROM placed pl JOIN participants p ON p.event_id = p_event_id AND p.user_id = pl.user_id
        WHERE ev.fee > 0 AND pl.place <= free AND NOT p.ticket_collected
      RETURNING user_id
  ), won AS (
    SELECT t.user_id FROM ticketed t UNION ALL SELECT h.user_id FROM held h
  ), queued AS (
    INSERT INTO waitlist (event_id, user_id)
      SELECT p_event_id, pl.user_id FROM placed pl WHERE pl.place > free ORDER BY pl.place
      ON CONFLICT DO NOTHING
      RETURNING id, user_id
  ), told AS (
    INSERT INTO inbox_messages (user_id, title, body, url, tag)
      SELECT r.user_id, r.title, r.body, '/event-details/' || p_event_id, 'draw-' || p_event_id
        FROM (
          SELECT w.user_id, 'You got a ticket' AS title, 'The draw for ' || ev.name || ' is done: your ticket is ready.' AS body FROM ticketed w
          UNION ALL
          SELECT h.user_id, 'You got a place',
                 'The draw for ' || ev.name || ' is done: pay within ' || ev.pay_within_minutes || ' minutes to get your ticket.' FROM held h
          UNION ALL
          SELECT q.user_id, 'You are on the waitlist',
                 'The draw for ' || ev.name || ' is done: you are number '
                   || ((SELECT count(*) FROM waitlist o WHERE o.event_id = p_event_id) + row_number() OVER (ORDER BY q.id)) || ' on the waitlist.'
            FROM queued q
        ) r
      RETURNING 1
  ), marked AS (
    -- What the draw did with each entrant, as the student's entry shows it (issue 36 item 8): placed entrants won or
    -- wait, the others were not eligible at the draw (no registration, a ticket already, a team below min_ppt).
    UPDATE fair_entrants f SET outcome = CASE WHEN pl.place IS NULL THEN 'NOT_ELIGIBLE' WHEN pl.place <= free THEN 'WON' ELSE 'WAITLISTED' END
      FROM sorted s LEFT JOIN placed pl ON pl.user_id = s.user_id
      WHERE f.event_id = p_event_id AND f.user_id = s.user_id
      RETURNING 1
  ), kept AS (
    INSERT INTO fair_draws (event_id, seed, entrants, winners, waitlisted, last_winner_key, keys)
      SELECT p_event_id, ev.fair_seed,
             (SELECT count(*) FROM sorted),
             (SELECT count(*) FROM won),
             (SELECT count(*) FROM queued),
             (SELECT max(pl.key) FROM placed pl WHERE pl.place <= free),
             coalesce((SELECT array_agg(s.key ORDER BY s.at) FROM sorted s), '{}')
      RETURNING entrants, winners, waitlisted
  )
  SELECT ARRAY[r.entrants, r.winners, r.waitlisted] INTO counts FROM kept r;
  PERFORM set_config('campus.bulk_tickets', 'off', true);
  PERFORM set_config('campus.bulk_holds', 'off', true);
  -- The CHECK events_tickets_within_count is the backstop: this cannot pass ticket_count (free was bounded above).
  UPDATE events SET tickets_sold = tickets_sold + CASE WHEN ev.fee = 0 THEN counts[2] ELSE 0 END,
                    tickets_held = tickets_held + CASE WHEN ev.fee > 0 THEN counts[2] ELSE 0 END,
                    fair_drawn_at = now(), fair_entrant_count = counts[1]
    WHERE id = p_event_id;
  RETURN counts;
END
$$;
