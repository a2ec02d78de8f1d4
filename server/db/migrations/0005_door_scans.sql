-- The door (issue 12): every scan a door device makes, by the id the device gave it, with the answer the server
-- gave. A repeated scan_id (a retry, a sync sent twice) gets this first answer again; the primary key, not a read
-- first, decides which request recorded it. A code of no ticket is not recorded (nothing changed).
CREATE TABLE "door_scans" (
	"scan_id" uuid PRIMARY KEY NOT NULL,
	"event_id" integer NOT NULL,
	"ticket_code" text NOT NULL,
	"gate" text NOT NULL,
	"answer" jsonb,
	"scanned_at" timestamp with time zone DEFAULT now() NOT NULL,
	"offline" boolean DEFAULT false NOT NULL,
	"scanned_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "door_scans" ADD CONSTRAINT "door_scans_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "door_scans" ADD CONSTRAINT "door_scans_scanned_by_users_id_fk" FOREIGN KEY ("scanned_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "door_scans_event_ticket" ON "door_scans" USING btree ("event_id","ticket_code");--> statement-breakpoint
-- The door's counts (checked in, per event) and the ratings rule read check-ins by event.
CREATE INDEX "participants_event_checked_in" ON "participants" USING btree ("event_id") WHERE "checked_in_at" IS NOT NULL;
