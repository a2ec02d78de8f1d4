-- A fair opening (issue 24, API.md Part 3): for `fair_window_seconds` after an event reaches TICKET_OPEN, a claim
-- enters the student in a draw (one insert into fair_entrants) instead of racing for a ticket; at `fair_draw_at`
-- the entrants are ordered by their draw key, HMAC-SHA256(key = fair_seed, message = the decimal user id), the
-- first get the places left and the rest join the waitlist in that order. 0 keeps first come, first served.
--
-- fair_seed          64 hex characters from the server's CSPRNG, fixed when the window is set; secret until the draw
--                    (the wire carries its SHA-256 before, the seed itself after)
-- fair_draw_at       set by the trigger below when the event reaches TICKET_OPEN (now + the window); cleared if it
--                    leaves TICKET_OPEN before its draw (the next opening starts a new window, the entrants kept)
-- fair_drawn_at      the state column that makes the draw happen once: set by fair_draw() in the transaction that
--                    draws, under the event's row lock, and the draw runs only where it is NULL
-- fair_entrant_count the number of entrants at the draw (NULL before)
ALTER TABLE "events" ADD COLUMN "fair_window_seconds" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "fair_seed" text;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "fair_draw_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "fair_drawn_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "fair_entrant_count" integer;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_fair_window_range" CHECK ("events"."fair_window_seconds" >= 0 AND "events"."fair_window_seconds" <= 3600);--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_fair_seed_set" CHECK ("events"."fair_window_seconds" = 0 OR "events"."fair_seed" IS NOT NULL);--> statement-breakpoint
-- The scheduler's due draws.
CREATE INDEX "events_fair_draw_due" ON "events" USING btree ("fair_draw_at") WHERE "fair_draw_at" IS NOT NULL AND "fair_drawn_at" IS NULL;--> statement-breakpoint
-- One row per student in the draw: written once by the claim, never updated (the key and the result follow from
-- the seed and fair_draws). Not tied to the registration: a student who leaves after the draw stays in the
-- published list; the draw itself passes over entrants who are no longer registered.
CREATE TABLE "fair_entrants" (
	"event_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"entered_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "fair_entrants_event_id_user_id_pk" PRIMARY KEY("event_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "fair_entrants" ADD CONSTRAINT "fair_entrants_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fair_entrants" ADD CONSTRAINT "fair_entrants_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "fair_entrants_user" ON "fair_entrants" USING btree ("user_id");--> statement-breakpoint
-- The published record of a draw, written once by fair_draw(): the seed, the counts, the sorted keys, and the key
-- of the last winner (an entrant's result: WON where their key sorts at or before it).
CREATE TABLE "fair_draws" (
	"event_id" integer PRIMARY KEY NOT NULL,
	"drawn_at" timestamp with time zone DEFAULT now() NOT NULL,
	"seed" text NOT NULL,
	"entrants" integer NOT NULL,
	"winners" integer NOT NULL,
	"waitlisted" integer NOT NULL,
	"last_winner_key" text,
	"keys" text[] NOT NULL
);
--> statement-breakpoint
ALTER TABLE "fair_draws" ADD CONSTRAINT "fair_draws_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE OR REPLACE FUNCTION events_fair_window() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.state = 'TICKET_OPEN' AND (TG_OP = 'INSERT' OR OLD.state IS DISTINCT FROM 'TICKET_OPEN')
     AND NEW.fair_window_seconds > 0 AND NEW.fair_drawn_at IS NULL AND NEW.is_ticket_feature_enabled THEN
    NEW.fair_draw_at := now() + make_interval(secs => NEW.fair_window_seconds);
  ELSIF TG_OP = 'UPDATE' AND OLD.state = 'TICKET_OPEN' AND NEW.state <> 'TICKET_OPEN' AND NEW.fair_drawn_at IS NULL THEN
    NEW.fair_draw_at := NULL;
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER events_fair_window BEFORE INSERT OR UPDATE OF state ON "events" FOR EACH ROW EXECUTE FUNCTION events_fair_window();
--> statement-breakpoint
-- claim_tickets() of 0006 with the draw window. While the window is open (TICKET_OPEN, fair_draw_at in the future,
-- not drawn) a claim is an entry: the batch's registered students without a ticket (and not in a team below
-- min_ppt) are inserted into fair_entrants in one statement (ON CONFLICT DO NOTHING: a second tap changes nothing),
-- under a FOR SHARE lock of the event row, which the draw's FOR UPDATE waits for: no entry commits beside a draw
-- and goes unseen. Entries answer 'in_draw:<draw_at, ISO UTC>'. Once fair_draw_at has passed and the draw has not
-- run, the claim answers 'draw_pending' (the server runs the draw and claims again); after the draw, first come,
-- first served as before. Answers one word per claim, in the order given:
--   claimed | in_draw:<time> | draw_pending | not_found | not_open | not_registered | already | team_incomplete | sold_out
CREATE OR REPLACE FUNCTION claim_tickets(p_event_id integer, p_user_ids integer[], p_codes text[]) RETURNS text[]
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
  i integer;
BEGIN
  IF n <> coalesce(cardinality(p_codes), 0) THEN
    RAISE EXCEPTION 'claim_tickets: % students but % codes', n, cardinality(p_codes);
  END IF;
  SELECT e.state, e.is_ticket_feature_enabled, e.tickets_sold, e.ticket_count, e.min_ppt, e.fair_draw_at, e.fair_drawn_at INTO ev
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
      INSERT INTO fair_entrants (event_id, user_id)
        SELECT p_event_id, p.user_id FROM participants p
          WHERE p.event_id = p_event_id AND p.user_id = ANY (p_user_ids) AND NOT p.ticket_collected
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
    SELECT e.state, e.is_ticket_feature_enabled, e.tickets_sold, e.ticket_count, e.min_ppt, e.fair_draw_at, e.fair_drawn_at INTO ev
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
-- participants_count_tickets() of 0004, with one way around it: a transaction that sets campus.bulk_tickets to
-- 'on' (set_config(..., true): that transaction only) moves tickets_sold itself, once, for a whole statement of
-- tickets. fair_draw() does, for its winners: one counter update per winner, in one transaction, made the row's
-- version chain as long as the number of winners, and the draw of 20,000 for 2,000 tickets took seconds.
CREATE OR REPLACE FUNCTION participants_count_tickets() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('campus.bulk_tickets', true) = 'on' THEN
    RETURN NULL;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.ticket_collected THEN
    UPDATE events SET tickets_sold = tickets_sold - 1 WHERE id = OLD.event_id;
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') AND NEW.ticket_collected THEN
    UPDATE events SET tickets_sold = tickets_sold + 1 WHERE id = NEW.event_id;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- The draw of one event, set-based: every entrant's key in one pass (HMAC-SHA256 built from the core sha256():
-- H((K xor opad) || H((K xor ipad) || message)); the two padded keys come from the server, which holds the seed,
-- so no extension is needed), then one UPDATE gives the first `free` registered entrants without a ticket their
-- tickets (codes from the server's CSPRNG, p_codes), one INSERT ... SELECT ... ORDER BY puts the rest on the
-- waitlist in key order (its serial ids keep that order), one INSERT queues their push notifications, and the
-- published record goes to fair_draws. Runs only for a due, undrawn TICKET_OPEN event whose row the caller locked
-- (FOR UPDATE): fair_drawn_at is set here, so a second call finds nothing. The participants trigger moves
-- tickets_sold and events_tickets_within_count stays the backstop. Answers {entrants, winners, waitlisted}, or
-- NULL when there was nothing to draw.
CREATE OR REPLACE FUNCTION fair_draw(p_event_id integer, p_ipad bytea, p_opad bytea, p_codes text[]) RETURNS integer[]
LANGUAGE plpgsql AS $$
DECLARE
  ev record;
  free integer;
  counts integer[];
BEGIN
  SELECT e.id, e.name, e.ticket_count, e.tickets_sold, e.fair_seed INTO ev FROM events e
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
  WITH keyed AS MATERIALIZED (
    SELECT f.user_id,
           encode(sha256(p_opad || sha256(p_ipad || convert_to(f.user_id::text, 'UTF8'))), 'hex') AS key,
           (p.user_id IS NOT NULL AND NOT p.ticket_collected) AS eligible
      FROM fair_entrants f
      LEFT JOIN participants p ON p.event_id = f.event_id AND p.user_id = f.user_id
      WHERE f.event_id = p_event_id
  ), placed AS MATERIALIZED (
    SELECT k.user_id, k.key, row_number() OVER (ORDER BY k.key) AS place FROM keyed k WHERE k.eligible
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
  ), kept AS (
    INSERT INTO fair_draws (event_id, seed, entrants, winners, waitlisted, last_winner_key, keys)
      SELECT p_event_id, ev.fair_seed,
             (SELECT count(*) FROM keyed),
             (SELECT count(*) FROM won),
             (SELECT count(*) FROM queued),
             (SELECT max(pl.key) FROM placed pl WHERE pl.place <= free),
             coalesce((SELECT array_agg(k.key ORDER BY k.key) FROM keyed k), '{}')
      RETURNING entrants, winners, waitlisted
  )
  SELECT ARRAY[r.entrants, r.winners, r.waitlisted] INTO counts FROM kept r;
  PERFORM set_config('campus.bulk_tickets', 'off', true);
  -- The CHECK events_tickets_within_count is the backstop: this cannot pass ticket_count (free was bounded above).
  UPDATE events SET tickets_sold = tickets_sold + counts[2], fair_drawn_at = now(), fair_entrant_count = counts[1] WHERE id = p_event_id;
  RETURN counts;
END
$$;
