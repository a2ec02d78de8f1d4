-- Around the event (API.md Part 2): the personal calendar feed and the participation certificates.
--
-- calendar_feeds: one row per student who asked for a feed. The feed's secret is never stored: the URL's secret
-- is an HMAC of the server's secret over (user id, nonce); only its SHA-256 is kept, to find the student from a
-- URL. A rotation writes a new nonce and hash, so the old URL finds nobody.
CREATE TABLE "calendar_feeds" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"nonce" text NOT NULL,
	"secret_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"rotated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "calendar_feeds" ADD CONSTRAINT "calendar_feeds_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "calendar_feeds_secret_hash" ON "calendar_feeds" USING btree ("secret_hash");--> statement-breakpoint
-- certificates: the verification code of a participant's certificate, made (random) on the first download and the
-- same ever after; /verify/{code} finds it by the unique index.
CREATE TABLE "certificates" (
	"participant_id" integer PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"issued_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "certificates" ADD CONSTRAINT "certificates_participant_id_participants_id_fk" FOREIGN KEY ("participant_id") REFERENCES "public"."participants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "certificates_code" ON "certificates" USING btree ("code");
--> statement-breakpoint
-- What a calendar app needs to replace an event rather than duplicate it: a SEQUENCE and a LAST-MODIFIED that rise
-- whenever what the feed shows of the event changes, kept by the database so no code path that edits an event
-- (the console, the scheduler, the CLI) can forget them.
ALTER TABLE "events" ADD COLUMN "calendar_sequence" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "calendar_modified_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
CREATE OR REPLACE FUNCTION events_calendar_revision() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.name IS DISTINCT FROM OLD.name OR NEW.description IS DISTINCT FROM OLD.description
     OR NEW.dates IS DISTINCT FROM OLD.dates OR NEW.venue IS DISTINCT FROM OLD.venue
     OR NEW.ends_at IS DISTINCT FROM OLD.ends_at OR NEW.state IS DISTINCT FROM OLD.state THEN
    NEW.calendar_sequence := OLD.calendar_sequence + 1;
    NEW.calendar_modified_at := clock_timestamp();
  END IF;
  RETURN NEW;
END;
$$;--> statement-breakpoint
CREATE TRIGGER events_calendar_revision BEFORE UPDATE ON "events" FOR EACH ROW EXECUTE FUNCTION events_calendar_revision();
