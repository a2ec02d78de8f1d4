-- The draw nonce (issue 36 item 4, API.md Part 3): a draw key is HMAC-SHA256(seed, "<user id>:<nonce>"), where the app
-- makes the nonce at entry, so the keys published after the draw cannot be linked to the sequential user ids.
-- claim_tickets() takes the entrants' nonces beside their codes (a fourth argument: the three-argument one goes);
-- fair_draw() keeps what it did with each entrant (fair_entrants.outcome), which the student's entry shows.
ALTER TABLE "fair_entrants" ADD COLUMN "nonce" text;--> statement-breakpoint
ALTER TABLE "fair_entrants" ADD COLUMN "outcome" text;--> statement-breakpoint
DROP FUNCTION IF EXISTS claim_tickets(integer, integer[], text[]);
--> statement-breakpoint
-- A batch of ticket claims for one event, one word per claim in the order given:
--   claimed | in_draw:<draw_at, ISO UTC> | draw_pending | not_found | not_open | not_registered | already | team_incomplete | sold_out
-- The server (server/db/claims.ts) sends the claims that arrive while the previous batch is in the database as one
-- call: one lock of the event row and one commit for the batch. Never more than ticket_count: while tickets are left
-- the event row is locked FOR UPDATE before any participant row (one lock order for every claim), and the places held
-- for waitlist offers are counted under that lock; a student holding an unexpired offer claims the place held for
-- them. One ticket per student: the participant row is updated only where ticket_collected is false. In a fair
-- opening's window (fair_draw_at in the future, not drawn) a claim is an entry into fair_entrants, with its draw key,
-- under a FOR SHARE lock of the event row that the draw's FOR UPDATE waits for; after the window and before the draw
-- it answers draw_pending (the server runs the draw and claims again). The read before the lock only refuses early.
-- The counter itself is moved by the participants triggers (participants_count_tickets); the CHECK
-- events_tickets_within_count is the backstop.
-- The draw key is HMAC-SHA256(seed, '<user id>:<nonce>') (API.md Part 3): p_nonces[i] is the entrant's nonce, made by
-- the app (or the server); a second entry keeps the first (ON CONFLICT DO NOTHING), so the key never changes.
-- Migrations: 0002, 0004, 0006, 0011, 0013, 0018 (the last holds this definition).
CREATE OR REPLACE FUNCTION claim_tickets(p_event_id integer, p_user_ids integer[], p_codes text[], p_nonces text[]) RETURNS text[]
LANGUAGE plpgsql AS $$
DECLARE
  ev record;
  n integer := coalesce(cardinality(p_user_ids), 0);
  statuses text[] := '{}';
  collected boolean;
  team integer;
  members integer;
  held integer;
  my_offer boolean;
  draw_at timestamptz;
  pads bytea[];
  i integer;
BEGIN
  IF n <> coalesce(cardinality(p_codes), 0) OR n <> coalesce(cardinality(p_nonces), 0) THEN
    RAISE EXCEPTION 'claim_tickets: % students but % codes and % nonces', n, cardinality(p_codes), cardinality(p_nonces);
  END IF;
  SELECT e.state, e.is_ticket_feature_enabled, e.tickets_sold, e.ticket_count, e.min_ppt, e.fair_draw_at, e.fair_drawn_at, e.fair_seed INTO ev
    FROM events e WHERE e.id = p_event_id;
  IF NOT FOUND OR ev.state = 'DRAFT' THEN
    RETURN array_fill('not_found'::text, ARRAY[n]);
  END IF;
  IF ev.state = 'TICKET_OPEN' AND ev.is_ticket_feature_enabled AND ev.fair_draw_at IS NOT NULL AND ev.fair_drawn_at IS NULL THEN
    IF ev.fair_draw_at <= now() THEN
      RETURN array_fill('draw_pending'::text, ARRAY[n]);
    END IF;
    SELECT e.fair_draw_at INTO draw_at FROM events e
      WHERE e.id = p_event_id AND e.state = 'TICKET_OPEN' AND e.is_ticket_feature_enabled AND e.fair_drawn_at IS NULL AND e.fair_draw_at > now()
      FOR SHARE;
    IF FOUND THEN
      pads := fair_pads(ev.fair_seed);
      INSERT INTO fair_entrants (event_id, user_id, key, nonce)
        SELECT p_event_id, p.user_id, encode(sha256(pads[2] || sha256(pads[1] || convert_to(p.user_id::text || ':' || c.nonce, 'UTF8'))), 'hex'), c.nonce
          FROM participants p
          JOIN unnest(p_user_ids, p_nonces) AS c(user_id, nonce) ON c.user_id = p.user_id
          WHERE p.event_id = p_event_id AND NOT p.ticket_collected
            AND (ev.min_ppt <= 1 OR p.team_id IS NULL OR (SELECT count(*) FROM participants m WHERE m.team_id = p.team_id) >= ev.min_ppt)
        ON CONFLICT DO NOTHING;
      SELECT array_agg(CASE WHEN p.user_id IS NULL THEN 'not_registered'
                            WHEN f.user_id IS NOT NULL THEN 'in_draw:' || to_char(draw_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
                            WHEN p.ticket_collected THEN 'already'
                            ELSE 'team_incomplete' END ORDER BY u.ord)
        INTO statuses
        FROM unnest(p_user_ids) WITH ORDINALITY AS u(id, ord)
        LEFT JOIN participants p ON p.event_id = p_event_id AND p.user_id = u.id
        LEFT JOIN fair_entrants f ON f.event_id = p_event_id AND f.user_id = u.id;
      RETURN statuses;
    END IF;
    -- The draw ran (or the event moved) while this waited: the claim goes on first come, first served.
    SELECT e.state, e.is_ticket_feature_enabled, e.tickets_sold, e.ticket_count, e.min_ppt, e.fair_draw_at, e.fair_drawn_at, e.fair_seed INTO ev
      FROM events e WHERE e.id = p_event_id;
    IF ev.state = 'TICKET_OPEN' AND ev.is_ticket_feature_enabled AND ev.fair_draw_at IS NOT NULL AND ev.fair_drawn_at IS NULL THEN
      RETURN array_fill('draw_pending'::text, ARRAY[n]);
    END IF;
  END IF;
  IF ev.tickets_sold < ev.ticket_count AND ev.state = 'TICKET_OPEN' AND ev.is_ticket_feature_enabled THEN
    SELECT e.state, e.is_ticket_feature_enabled, e.tickets_sold, e.ticket_count, e.min_ppt INTO ev
      FROM events e WHERE e.id = p_event_id FOR UPDATE;
  END IF;
  IF ev.state <> 'TICKET_OPEN' OR NOT ev.is_ticket_feature_enabled THEN
    RETURN array_fill('not_open'::text, ARRAY[n]);
  END IF;
  -- Under the event's lock: the places held for offered students (read once; moved below as offers are taken).
  SELECT count(*) INTO held FROM waitlist w WHERE w.event_id = p_event_id AND w.offered_at IS NOT NULL;

  FOR i IN 1 .. n LOOP
    SELECT p.ticket_collected, p.team_id INTO collected, team
      FROM participants p WHERE p.event_id = p_event_id AND p.user_id = p_user_ids[i];
    IF collected IS NULL THEN
      statuses := statuses || 'not_registered'::text;
      CONTINUE;
    END IF;
    IF collected THEN
      statuses := statuses || 'already'::text;
      CONTINUE;
    END IF;
    IF ev.min_ppt > 1 AND team IS NOT NULL THEN
      SELECT count(*) INTO members FROM participants p WHERE p.team_id = team;
      IF members < ev.min_ppt THEN
        statuses := statuses || 'team_incomplete'::text;
        CONTINUE;
      END IF;
    END IF;
    my_offer := held > 0 AND EXISTS (
      SELECT 1 FROM waitlist w WHERE w.event_id = p_event_id AND w.user_id = p_user_ids[i] AND w.offer_expires_at > now());
    IF ev.tickets_sold >= ev.ticket_count OR (NOT my_offer AND ev.tickets_sold + held >= ev.ticket_count) THEN
      statuses := statuses || 'sold_out'::text;
      CONTINUE;
    END IF;
    UPDATE participants SET ticket_collected = true, ticket_code = p_codes[i], ticket_collected_at = now()
      WHERE event_id = p_event_id AND user_id = p_user_ids[i] AND ticket_collected = false;
    IF NOT FOUND THEN
      statuses := statuses || 'already'::text;
      CONTINUE;
    END IF;
    DELETE FROM waitlist w WHERE w.event_id = p_event_id AND w.user_id = p_user_ids[i];
    IF my_offer THEN
      held := held - 1;
    END IF;
    ev.tickets_sold := ev.tickets_sold + 1;
    statuses := statuses || 'claimed'::text;
  END LOOP;
  RETURN statuses;
END
$$;
--> statement-breakpoint
-- The draw of one event, set-based: every entrant's key in one pass (the key kept at entry, or HMAC-SHA256 built
-- from the core sha256() with the padded keys the server passes in), sorted once bytewise (COLLATE "C"); the first
-- `free` eligible entrants (registered, no ticket, not in a team below min_ppt) get their tickets in one UPDATE
-- (codes from the server's CSPRNG, tickets_sold moved once), the other eligible ones join the waitlist in key order,
-- push rows for those with a subscription, and the published record (every entrant's key) in fair_draws. Runs only
-- for a due, undrawn TICKET_OPEN event, whose row it locks; fair_drawn_at set here makes a second call find nothing.
-- Answers {entrants, winners, waitlisted}, or NULL. Each entrant's outcome (WON, WAITLISTED, NOT_ELIGIBLE) is kept in
-- fair_entrants.outcome; a key is HMAC-SHA256(seed, '<user id>:<nonce>'), or of the user id alone for an entry older
-- than the nonce (computed here only for an entry whose key was not kept at entry).
-- Migrations: 0011, 0013, 0018 (the last holds this definition).
CREATE OR REPLACE FUNCTION fair_draw(p_event_id integer, p_ipad bytea, p_opad bytea, p_codes text[]) RETURNS integer[]
LANGUAGE plpgsql AS $$
DECLARE
  ev record;
  free integer;
  counts integer[];
BEGIN
  SELECT e.id, e.name, e.ticket_count, e.tickets_sold, e.fair_seed, e.min_ppt INTO ev FROM events e
    WHERE e.id = p_event_id AND e.state = 'TICKET_OPEN' AND e.is_ticket_feature_enabled
      AND e.fair_draw_at <= now() AND e.fair_drawn_at IS NULL
    FOR UPDATE;
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  free := ev.ticket_count - ev.tickets_sold - (SELECT count(*) FROM waitlist w WHERE w.event_id = p_event_id AND w.offered_at IS NOT NULL);
  free := greatest(0, least(free, coalesce(cardinality(p_codes), 0)));
  -- The winners' tickets are counted once below, not row by row by the participants trigger.
  PERFORM set_config('campus.bulk_tickets', 'on', true);
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
  ), won AS (
    UPDATE participants p SET ticket_collected = true, ticket_code = p_codes[pl.place::int], ticket_collected_at = now()
      FROM placed pl
      WHERE p.event_id = p_event_id AND p.user_id = pl.user_id AND pl.place <= free AND NOT p.ticket_collected
      RETURNING p.user_id
  ), queued AS (
    INSERT INTO waitlist (event_id, user_id)
      SELECT p_event_id, pl.user_id FROM placed pl WHERE pl.place > free ORDER BY pl.place
      ON CONFLICT DO NOTHING
      RETURNING id, user_id
  ), told AS (
    INSERT INTO push_outbox (user_id, title, body, url, tag)
      SELECT r.user_id, r.title, r.body, '/event-details/' || p_event_id, 'draw-' || p_event_id
        FROM (
          SELECT w.user_id, 'You got a ticket' AS title, 'The draw for ' || ev.name || ' is done: your ticket is ready.' AS body FROM won w
          UNION ALL
          SELECT q.user_id, 'You are on the waitlist',
                 'The draw for ' || ev.name || ' is done: you are number '
                   || ((SELECT count(*) FROM waitlist o WHERE o.event_id = p_event_id) + row_number() OVER (ORDER BY q.id)) || ' on the waitlist.'
            FROM queued q
        ) r
        WHERE EXISTS (SELECT 1 FROM push_subscriptions s WHERE s.user_id = r.user_id)
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
  -- The CHECK events_tickets_within_count is the backstop: this cannot pass ticket_count (free was bounded above).
  UPDATE events SET tickets_sold = tickets_sold + counts[2], fair_drawn_at = now(), fair_entrant_count = counts[1] WHERE id = p_event_id;
  RETURN counts;
END
$$;
