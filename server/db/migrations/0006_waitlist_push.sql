-- Give back and waitlist, push notifications (issue 13, API.md Part 2 "Around the event").
--
-- The waitlist of a sold-out event: one row per waiting student, in the order they joined (id). A place that
-- frees up (a ticket given back, a participant gone, more tickets) is offered to the first in line: the row
-- gets offered_at and offer_expires_at, and until the offer is taken, left or passed on, that place is held:
-- claim_tickets() lets others claim only the places beyond tickets_sold + the offers out (an offer still
-- counts after its deadline until the tick passes it on, so nobody snatches it between the two).
-- A registration that goes (unregistered, team deleted) takes its waitlist row with it (the foreign key).
CREATE TABLE waitlist (
  id serial PRIMARY KEY,
  event_id integer NOT NULL REFERENCES events(id) ON DELETE CASCADE,
  user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  joined_at timestamp with time zone NOT NULL DEFAULT now(),
  offered_at timestamp with time zone,
  offer_expires_at timestamp with time zone,
  CONSTRAINT waitlist_offer_pair CHECK ((offered_at IS NULL) = (offer_expires_at IS NULL)),
  CONSTRAINT waitlist_participant FOREIGN KEY (event_id, user_id) REFERENCES participants(event_id, user_id) ON DELETE CASCADE ON UPDATE CASCADE
);
--> statement-breakpoint
CREATE UNIQUE INDEX waitlist_event_user ON waitlist (event_id, user_id);
--> statement-breakpoint
CREATE INDEX waitlist_user ON waitlist (user_id);
--> statement-breakpoint
CREATE INDEX waitlist_offer_expires ON waitlist (offer_expires_at) WHERE offer_expires_at IS NOT NULL;
--> statement-breakpoint
-- A browser's push subscription (Web Push): the endpoint is the push service's address for that browser.
CREATE TABLE push_subscriptions (
  id serial PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  endpoint text NOT NULL,
  p256dh text NOT NULL,
  auth text NOT NULL,
  created_at timestamp with time zone NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE UNIQUE INDEX push_subscriptions_endpoint ON push_subscriptions (endpoint);
--> statement-breakpoint
CREATE INDEX push_subscriptions_user ON push_subscriptions (user_id);
--> statement-breakpoint
-- Notifications waiting to be sent: written with the change that causes them (same transaction), sent by the
-- push tick off the request path; a row is taken by one instance only (DELETE ... FOR UPDATE SKIP LOCKED).
CREATE TABLE push_outbox (
  id bigserial PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  title text NOT NULL,
  body text NOT NULL,
  url text NOT NULL,
  tag text,
  created_at timestamp with time zone NOT NULL DEFAULT now()
);
--> statement-breakpoint
-- The reminder an hour before an event, sent once per event and start time.
CREATE TABLE event_reminders (
  event_id integer NOT NULL REFERENCES events(id) ON DELETE CASCADE,
  starts_at timestamp with time zone NOT NULL,
  sent_at timestamp with time zone NOT NULL DEFAULT now(),
  PRIMARY KEY (event_id, starts_at)
);
--> statement-breakpoint
-- Offers the free places of an event to the first in line, for p_hold_minutes; answers the students offered.
-- The caller holds the event's row lock (FOR UPDATE), so two calls for one event never offer one place twice.
-- Each offer queues its push notification (for students with a subscription).
CREATE OR REPLACE FUNCTION waitlist_offer(p_event_id integer, p_hold_minutes integer) RETURNS integer[]
LANGUAGE plpgsql AS $$
DECLARE
  ev record;
  free integer;
  offered integer[];
BEGIN
  SELECT e.id, e.name, e.state, e.is_ticket_feature_enabled, e.ticket_count, e.tickets_sold INTO ev FROM events e WHERE e.id = p_event_id;
  IF NOT FOUND OR ev.state <> 'TICKET_OPEN' OR NOT ev.is_ticket_feature_enabled THEN
    RETURN '{}';
  END IF;
  free := ev.ticket_count - ev.tickets_sold - (SELECT count(*) FROM waitlist w WHERE w.event_id = p_event_id AND w.offered_at IS NOT NULL);
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
    INSERT INTO push_outbox (user_id, title, body, url, tag)
      SELECT upd.user_id, 'A ticket is held for you',
             'Claim your ticket for ' || ev.name || ' by ' || to_char(upd.offer_expires_at AT TIME ZONE 'Asia/Kolkata', 'FMHH12:MI AM') || '.',
             '/event-details/' || p_event_id, 'offer-' || p_event_id
        FROM upd WHERE EXISTS (SELECT 1 FROM push_subscriptions s WHERE s.user_id = upd.user_id)
  )
  SELECT coalesce(array_agg(upd.user_id), '{}') INTO offered FROM upd;
  RETURN offered;
END
$$;
--> statement-breakpoint
-- An event that leaves TICKET_OPEN has no waitlist any more (offers cleared with it); reaching TICKET_OPEN queues
-- "Tickets are open" for its registered students with a push subscription (a manual move or the scheduler alike).
CREATE OR REPLACE FUNCTION events_state_waitlist_push() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.state = 'TICKET_OPEN' AND NEW.state <> 'TICKET_OPEN' THEN
    DELETE FROM waitlist WHERE event_id = NEW.id;
  END IF;
  IF NEW.state = 'TICKET_OPEN' AND OLD.state <> 'TICKET_OPEN' AND NEW.is_ticket_feature_enabled THEN
    INSERT INTO push_outbox (user_id, title, body, url, tag)
      SELECT p.user_id, 'Tickets are open', 'Collect your ticket for ' || NEW.name || ' now.', '/event-details/' || NEW.id, 'open-' || NEW.id
        FROM participants p
        WHERE p.event_id = NEW.id AND NOT p.ticket_collected
          AND EXISTS (SELECT 1 FROM push_subscriptions s WHERE s.user_id = p.user_id);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER events_state_waitlist_push AFTER UPDATE OF state ON events
  FOR EACH ROW WHEN (OLD.state IS DISTINCT FROM NEW.state) EXECUTE FUNCTION events_state_waitlist_push();
--> statement-breakpoint
-- claim_tickets() of 0004 with the waitlist's holds: a student holding an unexpired offer claims the place held
-- for them (and leaves the list); everyone else only claims the places beyond tickets_sold + the offers out.
-- A waitlisted student who gets a ticket any way leaves the list. Lock order unchanged (event row first).
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
  i integer;
BEGIN
  IF n <> coalesce(cardinality(p_codes), 0) THEN
    RAISE EXCEPTION 'claim_tickets: % students but % codes', n, cardinality(p_codes);
  END IF;
  SELECT e.state, e.is_ticket_feature_enabled, e.tickets_sold, e.ticket_count, e.min_ppt INTO ev
    FROM events e WHERE e.id = p_event_id;
  IF NOT FOUND OR ev.state = 'DRAFT' THEN
    RETURN array_fill('not_found'::text, ARRAY[n]);
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
