-- Ticket transfer (issue 25 item 2): a holder gives the ticket's place (not its code) to a friend registered for the
-- event. participants.ticket_transfers counts how often the place a student holds has changed hands (it moves with
-- the place: at most 2); ticket_transfers keeps every move with the code that stopped working, so the door can
-- answer TRANSFERRED for an old code (a list downloaded before the move) instead of an unknown ticket.
-- events.transfer_closes_minutes: null (transfers open until the holder is checked in), or how many minutes before
-- the event's first date transfers close, set by its organisers.
ALTER TABLE "participants" ADD COLUMN "ticket_transfers" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "transfer_closes_minutes" integer;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_transfer_closes_minutes" CHECK ("transfer_closes_minutes" IS NULL OR "transfer_closes_minutes" BETWEEN 0 AND 10080);--> statement-breakpoint
CREATE TABLE "ticket_transfers" (
	"id" serial PRIMARY KEY NOT NULL,
	"event_id" integer NOT NULL,
	"from_user_id" integer NOT NULL,
	"to_user_id" integer NOT NULL,
	"old_code" text NOT NULL,
	"transferred_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ticket_transfers" ADD CONSTRAINT "ticket_transfers_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_transfers" ADD CONSTRAINT "ticket_transfers_from_user_id_users_id_fk" FOREIGN KEY ("from_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_transfers" ADD CONSTRAINT "ticket_transfers_to_user_id_users_id_fk" FOREIGN KEY ("to_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "ticket_transfers_old_code" ON "ticket_transfers" USING btree ("old_code");--> statement-breakpoint
CREATE INDEX "ticket_transfers_event" ON "ticket_transfers" USING btree ("event_id");
