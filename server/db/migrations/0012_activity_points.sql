-- Activity points (issue 26): what an event gives, the college's settings, the winners an organiser marks, and the
-- verification codes of a transcript's entries. The record itself is never stored: it is computed from the verified
-- facts (door check-ins and their scans, door volunteers, council organisers, winners) on every read, so removing
-- a check-in or a winner removes its points (server/db/points.ts).
--
-- events.activity_points: null (the event gives no activity points) or {category, points, per_day, winner,
-- volunteer, organiser}, set by its organisers through /org/p/event/save and kept in the audit log with the event.
ALTER TABLE "events" ADD COLUMN "activity_points" jsonb;--> statement-breakpoint
-- Lateral-entry students have their own target (AICTE: 75 instead of 100), set by an admin.
ALTER TABLE "users" ADD COLUMN "lateral_entry" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- The college's settings: one row.
CREATE TABLE "points_settings" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"categories" jsonb NOT NULL,
	"target" integer DEFAULT 100 NOT NULL,
	"lateral_entry_target" integer DEFAULT 75 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "points_settings_one_row" CHECK ("id" = 1),
	CONSTRAINT "points_settings_targets" CHECK ("target" >= 0 AND "lateral_entry_target" >= 0)
);
--> statement-breakpoint
INSERT INTO "points_settings" ("id", "categories") VALUES
	(1, '["Technical","Cultural","Sports","Social service/NSS","Entrepreneurship","Professional body"]'::jsonb)
	ON CONFLICT DO NOTHING;--> statement-breakpoint
-- Winners, marked by an organiser once the event is completed; a winner is a participant of the event (the key
-- below), so unregistering removes the mark with the registration.
CREATE TABLE "event_winners" (
	"event_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"title" text,
	"marked_by" integer,
	"marked_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "event_winners_pkey" PRIMARY KEY ("event_id", "user_id")
);
--> statement-breakpoint
ALTER TABLE "event_winners" ADD CONSTRAINT "event_winners_participant" FOREIGN KEY ("event_id", "user_id") REFERENCES "public"."participants"("event_id", "user_id") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "event_winners" ADD CONSTRAINT "event_winners_marked_by_users_id_fk" FOREIGN KEY ("marked_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "event_winners_user" ON "event_winners" USING btree ("user_id");--> statement-breakpoint
-- The verification code of one entry of a student's record (user, event, kind), made when a transcript is first
-- printed and the same ever after; /verify/{code} finds it and says whether the entry still stands.
CREATE TABLE "point_codes" (
	"user_id" integer NOT NULL,
	"event_id" integer NOT NULL,
	"kind" text NOT NULL,
	"code" text NOT NULL,
	"issued_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "point_codes_pkey" PRIMARY KEY ("user_id", "event_id", "kind"),
	CONSTRAINT "point_codes_kind" CHECK ("kind" IN ('ATTENDED', 'WINNER', 'VOLUNTEER', 'ORGANISER'))
);
--> statement-breakpoint
ALTER TABLE "point_codes" ADD CONSTRAINT "point_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "point_codes" ADD CONSTRAINT "point_codes_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "point_codes_code" ON "point_codes" USING btree ("code");--> statement-breakpoint
-- The export and the below-target list read students by graduation year and branch.
CREATE INDEX "users_year_branch" ON "users" USING btree ("year", "branch");--> statement-breakpoint
-- The record's reads: a student's check-ins, and an event's volunteers by student (event_staff_user exists).
CREATE INDEX "participants_user_checked_in" ON "participants" USING btree ("user_id") WHERE "checked_in_at" IS NOT NULL;
