-- Each date's end time (issue 22 item 7): events.date_ends holds, beside `dates` and in the same order, the end of
-- each date (an ISO date-time with offset) or null (then the calendar shows that date as one hour, or up to the
-- schedule's ends_at on its day, as before). Set through /org/p/event/save with the dates.
ALTER TABLE "events" ADD COLUMN "date_ends" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
-- The calendar feed shows the end times: a change to them raises the event's SEQUENCE as a change to its dates does.
CREATE OR REPLACE FUNCTION events_calendar_revision() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.name IS DISTINCT FROM OLD.name OR NEW.description IS DISTINCT FROM OLD.description
     OR NEW.dates IS DISTINCT FROM OLD.dates OR NEW.date_ends IS DISTINCT FROM OLD.date_ends
     OR NEW.venue IS DISTINCT FROM OLD.venue
     OR NEW.ends_at IS DISTINCT FROM OLD.ends_at OR NEW.state IS DISTINCT FROM OLD.state THEN
    NEW.calendar_sequence := OLD.calendar_sequence + 1;
    NEW.calendar_modified_at := clock_timestamp();
  END IF;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
-- The codes of tickets given back (issue 22 item 12): release-ticket clears the participant's code, and the door
-- looks a code of no ticket up here to answer "This ticket was given back" instead of "No ticket of this event".
CREATE TABLE "released_tickets" (
	"ticket_code" text PRIMARY KEY NOT NULL,
	"event_id" integer NOT NULL,
	"released_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "released_tickets_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action
);
