-- Multi-day events and re-entry (issue 25 item 3): a ticket admits once per event day, the Asia/Kolkata day of each
-- of the event's dates (contract/admission.ts). admissions keeps one row per ticket and day: its first entry (time,
-- gate, scan, offline or not) and, for an event with re-entry, whether the holder is inside now. The primary key
-- makes "exactly one CHECKED_IN per ticket and day" a fact of the table. participants.checked_in_at and
-- checked_in_gate stay, mirroring the latest day's admission (null when none), so ratings, certificates and the
-- console read them as before. events.reentry: the organiser allows scanning out and in again.
ALTER TABLE "events" ADD COLUMN "reentry" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE TABLE "admissions" (
	"participant_id" integer NOT NULL,
	"event_id" integer NOT NULL,
	"day" text NOT NULL,
	"checked_in_at" timestamp with time zone NOT NULL,
	"gate" text,
	"scan_id" uuid,
	"offline" boolean DEFAULT false NOT NULL,
	"inside" boolean DEFAULT true NOT NULL,
	"moved_at" timestamp with time zone NOT NULL,
	CONSTRAINT "admissions_pkey" PRIMARY KEY("participant_id","day")
);
--> statement-breakpoint
ALTER TABLE "admissions" ADD CONSTRAINT "admissions_participant_id_participants_id_fk" FOREIGN KEY ("participant_id") REFERENCES "public"."participants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "admissions" ADD CONSTRAINT "admissions_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "admissions_event_day" ON "admissions" USING btree ("event_id","day");--> statement-breakpoint
-- The check-ins made before: one admission each, on the event day contract/admission.ts dayOf gives the check-in
-- time: its IST day when the event has a date that day, else the next event day, else the last ('' with no dates).
INSERT INTO "admissions" ("participant_id", "event_id", "day", "checked_in_at", "gate", "offline", "inside", "moved_at")
SELECT p."id", p."event_id",
  coalesce(
    (SELECT min(d.day) FROM (SELECT to_char(x.at::timestamptz AT TIME ZONE 'Asia/Kolkata', 'YYYY-MM-DD') AS day FROM jsonb_array_elements_text(e."dates") AS x(at)) d
      WHERE d.day >= to_char(p."checked_in_at" AT TIME ZONE 'Asia/Kolkata', 'YYYY-MM-DD')),
    (SELECT max(d.day) FROM (SELECT to_char(x.at::timestamptz AT TIME ZONE 'Asia/Kolkata', 'YYYY-MM-DD') AS day FROM jsonb_array_elements_text(e."dates") AS x(at)) d),
    ''),
  p."checked_in_at", p."checked_in_gate", false, true, p."checked_in_at"
FROM "participants" p JOIN "events" e ON e."id" = p."event_id"
WHERE p."checked_in_at" IS NOT NULL;
