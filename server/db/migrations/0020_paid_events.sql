-- Paid events (issue 35, API.md Part 4): one model of a held place for every method. A payment row holds a place
-- (PENDING until pay_by, AWAITING_CONFIRMATION with a UTR) or records it paid, refunding or refunded; events count the
-- held places (tickets_held, by a trigger) beside the tickets sold, and the CHECK bounds both together by ticket_count.
-- The ledger records every capture and refund in paise; gateway_events records every webhook once. Councils get their
-- UPI id and payee name; events their payment settings and a cancellation time. claim_tickets() and fair_draw() hold
-- places on a paid event instead of issuing tickets (server/db/functions/, written in by npm run db:function).
CREATE SEQUENCE "public"."payment_receipt_no" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1001 CACHE 1;--> statement-breakpoint
CREATE TABLE "gateway_events" (
	"id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"payload" jsonb NOT NULL,
	"outcome" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_ledger" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"payment_id" integer NOT NULL,
	"event_id" integer NOT NULL,
	"kind" text NOT NULL,
	"method" text NOT NULL,
	"amount" integer NOT NULL,
	"gateway_ref" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_ledger_kind" CHECK ("payment_ledger"."kind" IN ('CAPTURE', 'REFUND')),
	CONSTRAINT "payment_ledger_amount_positive" CHECK ("payment_ledger"."amount" > 0)
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" serial PRIMARY KEY NOT NULL,
	"event_id" integer NOT NULL,
	"user_id" integer,
	"participant_id" integer,
	"kind" text NOT NULL,
	"amount" integer NOT NULL,
	"currency" text DEFAULT 'INR' NOT NULL,
	"status" text DEFAULT 'PENDING' NOT NULL,
	"method" text,
	"reference" text NOT NULL,
	"pay_by" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"razorpay_order_id" text,
	"razorpay_payment_id" text,
	"utr" text,
	"utr_at" timestamp with time zone,
	"paid_at" timestamp with time zone,
	"confirmed_by" integer,
	"desk_mode" text,
	"receipt_no" integer,
	"refund_requested_at" timestamp with time zone,
	"razorpay_refund_id" text,
	"refunded_at" timestamp with time zone,
	"refunded_by" integer,
	"expired_at" timestamp with time zone,
	"double_of" integer,
	"lease_until" timestamp with time zone,
	"gateway_checked_at" timestamp with time zone,
	CONSTRAINT "payments_amount_positive" CHECK ("payments"."amount" > 0),
	CONSTRAINT "payments_kind" CHECK ("payments"."kind" IN ('TICKET', 'REGISTRATION')),
	CONSTRAINT "payments_status" CHECK ("payments"."status" IN ('PENDING', 'AWAITING_CONFIRMATION', 'PAID', 'EXPIRED', 'REFUND_PENDING', 'REFUNDED')),
	CONSTRAINT "payments_method" CHECK ("payments"."method" IS NULL OR "payments"."method" IN ('RAZORPAY', 'UPI', 'DESK')),
	CONSTRAINT "payments_desk_mode" CHECK ("payments"."desk_mode" IS NULL OR "payments"."desk_mode" IN ('CASH', 'UPI')),
	CONSTRAINT "payments_currency" CHECK ("payments"."currency" = 'INR'),
	CONSTRAINT "payments_paid_has_method" CHECK ("payments"."status" NOT IN ('PAID', 'REFUND_PENDING', 'REFUNDED') OR ("payments"."paid_at" IS NOT NULL AND "payments"."method" IS NOT NULL))
);
--> statement-breakpoint
ALTER TABLE "events" DROP CONSTRAINT "events_tickets_within_count";--> statement-breakpoint
ALTER TABLE "councils" ADD COLUMN "upi_vpa" text;--> statement-breakpoint
ALTER TABLE "councils" ADD COLUMN "upi_name" text;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "pay_within_minutes" integer DEFAULT 15 NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "refund_until_hours" integer DEFAULT 24 NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "payment_methods" jsonb DEFAULT '["RAZORPAY","UPI","DESK"]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "tickets_held" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "cancelled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payment_ledger" ADD CONSTRAINT "payment_ledger_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_participant_id_participants_id_fk" FOREIGN KEY ("participant_id") REFERENCES "public"."participants"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_confirmed_by_users_id_fk" FOREIGN KEY ("confirmed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_refunded_by_users_id_fk" FOREIGN KEY ("refunded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_double_of_payments_id_fk" FOREIGN KEY ("double_of") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payment_ledger_ref" ON "payment_ledger" USING btree ("kind","gateway_ref");--> statement-breakpoint
CREATE INDEX "payment_ledger_event" ON "payment_ledger" USING btree ("event_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_reference" ON "payments" USING btree ("reference");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_razorpay_order" ON "payments" USING btree ("razorpay_order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_razorpay_payment" ON "payments" USING btree ("razorpay_payment_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_utr" ON "payments" USING btree ("utr");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_receipt_no" ON "payments" USING btree ("receipt_no");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_razorpay_refund" ON "payments" USING btree ("razorpay_refund_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_live" ON "payments" USING btree ("event_id","user_id") WHERE "payments"."status" IN ('PENDING', 'AWAITING_CONFIRMATION', 'PAID') AND "payments"."double_of" IS NULL;--> statement-breakpoint
CREATE INDEX "payments_due" ON "payments" USING btree ("pay_by") WHERE "payments"."status" = 'PENDING';--> statement-breakpoint
CREATE INDEX "payments_refunds_due" ON "payments" USING btree ("event_id") WHERE "payments"."status" = 'REFUND_PENDING';--> statement-breakpoint
CREATE INDEX "payments_event" ON "payments" USING btree ("event_id","status");--> statement-breakpoint
CREATE INDEX "payments_user" ON "payments" USING btree ("user_id");--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_pay_within_minutes" CHECK ("events"."pay_within_minutes" BETWEEN 1 AND 60);--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_refund_until_hours" CHECK ("events"."refund_until_hours" BETWEEN 0 AND 720);--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_tickets_within_count" CHECK ("events"."tickets_sold" >= 0 AND "events"."tickets_held" >= 0 AND "events"."tickets_sold" + "events"."tickets_held" <= "events"."ticket_count");
--> statement-breakpoint
-- Keeps events.tickets_held equal to the places held for payment (issue 35): a TICKET payment PENDING or
-- AWAITING_CONFIRMATION, not a second payment (double_of), on every insert, delete and update of a payment, so no
-- code path can forget it; the CHECK events_tickets_within_count bounds tickets_sold + tickets_held by ticket_count.
-- A transaction that sets campus.bulk_holds to 'on' moves the counter itself, once for a statement of holds
-- (fair_draw(), for its winners). When a hold is paid its payment leaves the hold before the ticket is collected, so
-- the sum never passes the count in between. Any transaction that changes a hold takes the event row first.
-- Migrations: 0020 (the last holds this definition).
CREATE OR REPLACE FUNCTION payments_count_holds() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  was boolean := false;
  now_held boolean := false;
BEGIN
  IF current_setting('campus.bulk_holds', true) = 'on' THEN
    RETURN NULL;
  END IF;
  IF TG_OP <> 'INSERT' THEN
    was := OLD.kind = 'TICKET' AND OLD.status IN ('PENDING', 'AWAITING_CONFIRMATION') AND OLD.double_of IS NULL;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    now_held := NEW.kind = 'TICKET' AND NEW.status IN ('PENDING', 'AWAITING_CONFIRMATION') AND NEW.double_of IS NULL;
  END IF;
  IF was AND now_held AND OLD.event_id = NEW.event_id THEN
    RETURN NULL;
  END IF;
  IF was THEN
    UPDATE events SET tickets_held = tickets_held - 1 WHERE id = OLD.event_id;
  END IF;
  IF now_held THEN
    UPDATE events SET tickets_held = tickets_held + 1 WHERE id = NEW.event_id;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- No rupee lost when a place goes away (issue 35): a participant deleted with a live payment (a member removed, a
-- team deleted, an account deleted, an unpaid registration dropped) leaves it refunding if it was PAID (the refund job
-- pays it back), or expired if it was still held (a UTR given stays on the row: a statement that shows the money later
-- refunds it). The place itself is released by the counters' triggers.
-- Migrations: 0020 (the last holds this definition).
CREATE OR REPLACE FUNCTION participants_release_payment() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE payments
     SET status = CASE WHEN status = 'PAID' THEN 'REFUND_PENDING' ELSE 'EXPIRED' END,
         refund_requested_at = CASE WHEN status = 'PAID' THEN now() ELSE refund_requested_at END,
         expired_at = CASE WHEN status = 'PAID' THEN expired_at ELSE now() END
   WHERE participant_id = OLD.id AND status IN ('PENDING', 'AWAITING_CONFIRMATION', 'PAID') AND double_of IS NULL;
  RETURN OLD;
END
$$;
--> statement-breakpoint
-- A batch of ticket claims for one event, one word per claim in the order given:
--   claimed | held:<pay_by, ISO UTC> | in_draw:<draw_at, ISO UTC> | draw_pending | not_found | cancelled | not_open | not_registered |
--   already | team_incomplete | sold_out
-- On an event with a fee (issue 35) a claim that would collect a ticket holds the place instead: a PENDING payment
-- until pay_by (tickets_held counts it, under the same lock and CHECK as tickets_sold); a student already holding one
-- gets it again.
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
-- Migrations: 0002, 0004, 0006, 0011, 0013, 0018, 0020 (the last holds this definition).
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
  pid integer;
  hold_until timestamptz;
BEGIN
  IF n <> coalesce(cardinality(p_codes), 0) OR n <> coalesce(cardinality(p_nonces), 0) THEN
    RAISE EXCEPTION 'claim_tickets: % students but % codes and % nonces', n, cardinality(p_codes), cardinality(p_nonces);
  END IF;
  SELECT e.state, e.is_ticket_feature_enabled, e.tickets_sold, e.tickets_held, e.ticket_count, e.min_ppt, e.fair_draw_at, e.fair_drawn_at, e.fair_seed,
         e.fee, e.pay_within_minutes, e.cancelled_at INTO ev
    FROM events e WHERE e.id = p_event_id;
  IF NOT FOUND OR ev.state = 'DRAFT' THEN
    RETURN array_fill('not_found'::text, ARRAY[n]);
  END IF;
  IF ev.cancelled_at IS NOT NULL THEN
    RETURN array_fill('cancelled'::text, ARRAY[n]);
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
    SELECT e.state, e.is_ticket_feature_enabled, e.tickets_sold, e.tickets_held, e.ticket_count, e.min_ppt, e.fair_draw_at, e.fair_drawn_at, e.fair_seed,
           e.fee, e.pay_within_minutes, e.cancelled_at INTO ev
      FROM events e WHERE e.id = p_event_id;
    IF ev.state = 'TICKET_OPEN' AND ev.is_ticket_feature_enabled AND ev.fair_draw_at IS NOT NULL AND ev.fair_drawn_at IS NULL THEN
      RETURN array_fill('draw_pending'::text, ARRAY[n]);
    END IF;
  END IF;
  IF ev.tickets_sold + ev.tickets_held < ev.ticket_count AND ev.state = 'TICKET_OPEN' AND ev.is_ticket_feature_enabled THEN
    SELECT e.state, e.is_ticket_feature_enabled, e.tickets_sold, e.tickets_held, e.ticket_count, e.min_ppt, e.fee, e.pay_within_minutes INTO ev
      FROM events e WHERE e.id = p_event_id FOR UPDATE;
  END IF;
  IF ev.state <> 'TICKET_OPEN' OR NOT ev.is_ticket_feature_enabled THEN
    RETURN array_fill('not_open'::text, ARRAY[n]);
  END IF;
  -- Under the event's lock: the places held for offered students (read once; moved below as offers are taken).
  SELECT count(*) INTO held FROM waitlist w WHERE w.event_id = p_event_id AND w.offered_at IS NOT NULL;

  FOR i IN 1 .. n LOOP
    SELECT p.id, p.ticket_collected, p.team_id INTO pid, collected, team
      FROM participants p WHERE p.event_id = p_event_id AND p.user_id = p_user_ids[i];
    IF collected IS NULL THEN
      statuses := statuses || 'not_registered'::text;
      CONTINUE;
    END IF;
    IF collected THEN
      statuses := statuses || 'already'::text;
      CONTINUE;
    END IF;
    -- A paid event (issue 35): a student whose place is already held gets that hold again (a retried claim is safe).
    IF ev.fee > 0 THEN
      SELECT y.pay_by INTO hold_until FROM payments y
        WHERE y.event_id = p_event_id AND y.user_id = p_user_ids[i] AND y.status IN ('PENDING', 'AWAITING_CONFIRMATION') AND y.double_of IS NULL;
      IF FOUND THEN
        statuses := statuses || ('held:' || to_char(hold_until AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'));
        CONTINUE;
      END IF;
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
    IF ev.tickets_sold + ev.tickets_held >= ev.ticket_count OR (NOT my_offer AND ev.tickets_sold + ev.tickets_held + held >= ev.ticket_count) THEN
      statuses := statuses || 'sold_out'::text;
      CONTINUE;
    END IF;
    IF ev.fee > 0 THEN
      -- The place is held for its payment (its own trigger counts it in tickets_held); the ticket comes once paid.
      -- The claim's random code becomes the hold's reference (in the UPI note, at the desk), never a ticket's code.
      hold_until := now() + make_interval(mins => ev.pay_within_minutes);
      INSERT INTO payments (event_id, user_id, participant_id, kind, amount, reference, pay_by)
        VALUES (p_event_id, p_user_ids[i], pid, 'TICKET', ev.fee * 100, 'CE' || p_codes[i], hold_until);
      ev.tickets_held := ev.tickets_held + 1;
    ELSE
      UPDATE participants SET ticket_collected = true, ticket_code = p_codes[i], ticket_collected_at = now()
        WHERE event_id = p_event_id AND user_id = p_user_ids[i] AND ticket_collected = false;
      IF NOT FOUND THEN
        statuses := statuses || 'already'::text;
        CONTINUE;
      END IF;
      ev.tickets_sold := ev.tickets_sold + 1;
    END IF;
    DELETE FROM waitlist w WHERE w.event_id = p_event_id AND w.user_id = p_user_ids[i];
    IF my_offer THEN
      held := held - 1;
    END IF;
    IF ev.fee > 0 THEN
      statuses := statuses || ('held:' || to_char(hold_until AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'));
    ELSE
      statuses := statuses || 'claimed'::text;
    END IF;
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
-- On a paid event (issue 35) winners get their places held for payment (payments rows) instead of tickets.
-- Answers {entrants, winners, waitlisted}, or NULL. Each entrant's outcome (WON, WAITLISTED, NOT_ELIGIBLE) is kept in
-- fair_entrants.outcome; a key is HMAC-SHA256(seed, '<user id>:<nonce>'), or of the user id alone for an entry older
-- than the nonce (computed here only for an entry whose key was not kept at entry).
-- Migrations: 0011, 0013, 0018, 0020 (the last holds this definition).
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
    INSERT INTO push_outbox (user_id, title, body, url, tag)
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
-- Offers the free places of an event to the first in line, for p_hold_minutes; answers the students offered.
-- The caller holds the event's row lock (FOR UPDATE), so two calls for one event never offer one place twice.
-- Each offer queues its push notification (for students with a subscription).
-- Migrations: 0006, 0020 (the last holds this definition).
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
CREATE TRIGGER payments_count_holds AFTER INSERT OR DELETE OR UPDATE OF status, kind, event_id, double_of ON payments
  FOR EACH ROW EXECUTE FUNCTION payments_count_holds();
--> statement-breakpoint
CREATE TRIGGER participants_release_payment BEFORE DELETE ON participants
  FOR EACH ROW EXECUTE FUNCTION participants_release_payment();
