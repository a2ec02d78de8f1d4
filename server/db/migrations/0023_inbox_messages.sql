CREATE TABLE "inbox_messages" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"url" text NOT NULL,
	"tag" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"read_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "inbox_messages" ADD CONSTRAINT "inbox_messages_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "inbox_messages_user_id" ON "inbox_messages" USING btree ("user_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "inbox_messages_user_unread" ON "inbox_messages" USING btree ("user_id") WHERE "inbox_messages"."read_at" IS NULL;--> statement-breakpoint
CREATE INDEX "inbox_messages_created_at" ON "inbox_messages" USING btree ("created_at");
--> statement-breakpoint
-- Every message goes to the inbox (issue 37 item 2); this trigger, once per INSERT statement over the rows it
-- added, queues the push for the recipients who hold a subscription, so push_outbox keeps its sender and retries.
-- Migrations: 0023 (the last holds this definition).
CREATE OR REPLACE FUNCTION inbox_messages_push() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO push_outbox (user_id, title, body, url, tag)
    SELECT m.user_id, m.title, m.body, m.url, m.tag FROM inbox_added m
      WHERE EXISTS (SELECT 1 FROM push_subscriptions s WHERE s.user_id = m.user_id)
      ORDER BY m.id;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- An event that leaves TICKET_OPEN has no waitlist any more (offers cleared with it); reaching TICKET_OPEN queues
-- "Tickets are open" in the inbox of its registered students without a ticket (a manual move or the scheduler alike);
-- inbox_messages_push queues the push for those with a subscription.
-- Migrations: 0006, 0023 (the last holds this definition).
CREATE OR REPLACE FUNCTION events_state_waitlist_push() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.state = 'TICKET_OPEN' AND NEW.state <> 'TICKET_OPEN' THEN
    DELETE FROM waitlist WHERE event_id = NEW.id;
  END IF;
  IF NEW.state = 'TICKET_OPEN' AND OLD.state <> 'TICKET_OPEN' AND NEW.is_ticket_feature_enabled THEN
    INSERT INTO inbox_messages (user_id, title, body, url, tag)
      SELECT p.user_id, 'Tickets are open', 'Collect your ticket for ' || NEW.name || ' now.', '/event-details/' || NEW.id, 'open-' || NEW.id
        FROM participants p
        WHERE p.event_id = NEW.id AND NOT p.ticket_collected;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
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
--> statement-breakpoint
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
--> statement-breakpoint
CREATE TRIGGER inbox_messages_push AFTER INSERT ON inbox_messages REFERENCING NEW TABLE AS inbox_added
  FOR EACH STATEMENT EXECUTE FUNCTION inbox_messages_push();
