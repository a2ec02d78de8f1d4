-- Part 2 of API.md: roles, the audit log, DRAFT, check-in, team minimum, and a tickets_sold that cannot drift.
--
-- DRAFT: the enum is rebuilt rather than extended. A value added by ALTER TYPE ... ADD VALUE cannot be used in
-- the transaction that added it, and every pending migration runs in one transaction: a later migration naming
-- 'DRAFT' (an index predicate, a default) would fail on a fresh database.
ALTER TYPE "public"."event_state" RENAME TO "event_state_before_draft";--> statement-breakpoint
CREATE TYPE "public"."event_state" AS ENUM('DRAFT', 'UPCOMING', 'REGISTRATION_OPEN', 'REGISTRATION_CLOSED', 'TICKET_OPEN', 'TICKET_CLOSED', 'ONGOING', 'COMPLETED');--> statement-breakpoint
ALTER TABLE "events" ALTER COLUMN "state" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "events" ALTER COLUMN "state" TYPE "public"."event_state" USING "state"::text::"public"."event_state";--> statement-breakpoint
ALTER TABLE "events" ALTER COLUMN "state" SET DEFAULT 'UPCOMING';--> statement-breakpoint
DROP TYPE "public"."event_state_before_draft";--> statement-breakpoint
CREATE TABLE "audit_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_id" integer,
	"actor_kind" text NOT NULL,
	"action" text NOT NULL,
	"council_id" integer,
	"event_id" integer,
	"before" jsonb,
	"after" jsonb
);
--> statement-breakpoint
CREATE TABLE "council_organizers" (
	"council_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"granted_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "council_organizers_council_id_user_id_pk" PRIMARY KEY("council_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "event_staff" (
	"event_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"granted_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "event_staff_event_id_user_id_pk" PRIMARY KEY("event_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "min_ppt" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "registration_opens_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "registration_closes_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "tickets_open_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "tickets_close_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "starts_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "ends_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "schedule_applied_through" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "questions" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "participants" ADD COLUMN "answers" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "participants" ADD COLUMN "checked_in_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "participants" ADD COLUMN "checked_in_gate" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "is_admin" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "council_organizers" ADD CONSTRAINT "council_organizers_council_id_councils_id_fk" FOREIGN KEY ("council_id") REFERENCES "public"."councils"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "council_organizers" ADD CONSTRAINT "council_organizers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "council_organizers" ADD CONSTRAINT "council_organizers_granted_by_users_id_fk" FOREIGN KEY ("granted_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_staff" ADD CONSTRAINT "event_staff_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_staff" ADD CONSTRAINT "event_staff_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_staff" ADD CONSTRAINT "event_staff_granted_by_users_id_fk" FOREIGN KEY ("granted_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_log_event" ON "audit_log" USING btree ("event_id","id");--> statement-breakpoint
CREATE INDEX "audit_log_at" ON "audit_log" USING btree ("at");--> statement-breakpoint
CREATE INDEX "council_organizers_user" ON "council_organizers" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "event_staff_user" ON "event_staff" USING btree ("user_id");--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_min_ppt_within_max" CHECK ("events"."min_ppt" >= 1 AND "events"."min_ppt" <= "events"."ma_ppt");--> statement-breakpoint
ALTER TABLE "participants" ADD CONSTRAINT "participants_checked_in_holds_ticket" CHECK ("participants"."checked_in_at" IS NULL OR "participants"."ticket_collected");--> statement-breakpoint
-- tickets_sold always equals the participants holding a ticket (issue 10 item 5): kept by the database on every
-- insert, delete (a removed member, a deleted team's cascade, a deleted account) and update of a participant, so
-- no code path can forget it. Any transaction that changes a ticket holder takes the event row first
-- (SELECT ... FOR UPDATE), the lock order of claim_tickets(), so the trigger's update of that row cannot deadlock.
-- The CHECK events_tickets_within_count still bounds the counter.
CREATE OR REPLACE FUNCTION participants_count_tickets() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
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
CREATE TRIGGER participants_count_tickets_insert AFTER INSERT ON participants
  FOR EACH ROW WHEN (NEW.ticket_collected) EXECUTE FUNCTION participants_count_tickets();
--> statement-breakpoint
CREATE TRIGGER participants_count_tickets_delete AFTER DELETE ON participants
  FOR EACH ROW WHEN (OLD.ticket_collected) EXECUTE FUNCTION participants_count_tickets();
--> statement-breakpoint
CREATE TRIGGER participants_count_tickets_update AFTER UPDATE OF ticket_collected, event_id ON participants
  FOR EACH ROW WHEN (OLD.ticket_collected IS DISTINCT FROM NEW.ticket_collected OR OLD.event_id IS DISTINCT FROM NEW.event_id)
  EXECUTE FUNCTION participants_count_tickets();
--> statement-breakpoint
-- Counters that drifted before this migration (the bug it closes) are set to the truth.
UPDATE events e SET tickets_sold = (SELECT count(*) FROM participants p WHERE p.event_id = e.id AND p.ticket_collected)
  WHERE tickets_sold <> (SELECT count(*) FROM participants p WHERE p.event_id = e.id AND p.ticket_collected);
--> statement-breakpoint
-- claim_tickets() of 0002, with the counter now moved by the trigger, and a team below the event's min_ppt
-- refused ('team_incomplete'). Answers one word per claim, in the order given:
--   claimed | not_found | not_open | not_registered | already | team_incomplete | sold_out
-- The lock order is unchanged: the event row (FOR UPDATE) before any participant row.
CREATE OR REPLACE FUNCTION claim_tickets(p_event_id integer, p_user_ids integer[], p_codes text[]) RETURNS text[]
LANGUAGE plpgsql AS $$
DECLARE
  ev record;
  n integer := coalesce(cardinality(p_user_ids), 0);
  statuses text[] := '{}';
  collected boolean;
  team integer;
  members integer;
  i integer;
BEGIN
  IF n <> coalesce(cardinality(p_codes), 0) THEN
    RAISE EXCEPTION 'claim_tickets: % students but % codes', n, cardinality(p_codes);
  END IF;
  SELECT e.state, e.is_ticket_feature_enabled, e.tickets_sold, e.ticket_count, e.min_ppt INTO ev
    FROM events e WHERE e.id = p_event_id;
  IF NOT FOUND OR ev.state = 'DRAFT' THEN
    -- A draft is no event to a student.
    RETURN array_fill('not_found'::text, ARRAY[n]);
  END IF;
  IF ev.tickets_sold < ev.ticket_count AND ev.state = 'TICKET_OPEN' AND ev.is_ticket_feature_enabled THEN
    -- Tickets left: take the event row, then decide every claim of the batch against its counter.
    SELECT e.state, e.is_ticket_feature_enabled, e.tickets_sold, e.ticket_count, e.min_ppt INTO ev
      FROM events e WHERE e.id = p_event_id FOR UPDATE;
  END IF;
  IF ev.state <> 'TICKET_OPEN' OR NOT ev.is_ticket_feature_enabled THEN
    RETURN array_fill('not_open'::text, ARRAY[n]);
  END IF;

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
    IF ev.tickets_sold >= ev.ticket_count THEN
      statuses := statuses || 'sold_out'::text;
      CONTINUE;
    END IF;
    UPDATE participants SET ticket_collected = true, ticket_code = p_codes[i], ticket_collected_at = now()
      WHERE event_id = p_event_id AND user_id = p_user_ids[i] AND ticket_collected = false;
    IF NOT FOUND THEN
      -- The same student twice in one batch: the first claim took the ticket.
      statuses := statuses || 'already'::text;
      CONTINUE;
    END IF;
    ev.tickets_sold := ev.tickets_sold + 1;
    statuses := statuses || 'claimed'::text;
  END LOOP;
  RETURN statuses;
END
$$;
