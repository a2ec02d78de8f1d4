-- A code that changes every 30 s (issue 25 item 1). participants.ticket_secret: 20 random bytes (40 lowercase hex)
-- from which the ticket's time code is made (contract/time-code.ts); null exactly when there is no ticket code.
-- A trigger gives every new ticket code a new secret, whichever path sets it (claim_tickets(), fair_draw(), the
-- waitlist's offer, a transfer, the demo), so the old holder's secret stops working with the old code; a write that
-- sets a secret itself (tests) keeps it. gen_random_uuid() (core since PostgreSQL 13, PGlite too; no pgcrypto): two
-- v4 UUIDs give 40 hex digits, 154 of their bits random.
-- events.rotating_codes: false for printed tickets, whose plain code the door then accepts.
ALTER TABLE "participants" ADD COLUMN "ticket_secret" text;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "rotating_codes" boolean DEFAULT true NOT NULL;--> statement-breakpoint
CREATE OR REPLACE FUNCTION new_ticket_secret() RETURNS text
LANGUAGE sql VOLATILE AS $$
  SELECT substr(replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', ''), 1, 40)
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION participants_ticket_secret() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.ticket_code IS NULL THEN
    NEW.ticket_secret := NULL;
  ELSIF TG_OP = 'INSERT' THEN
    NEW.ticket_secret := coalesce(NEW.ticket_secret, new_ticket_secret());
  ELSIF NEW.ticket_code IS DISTINCT FROM OLD.ticket_code AND NEW.ticket_secret IS NOT DISTINCT FROM OLD.ticket_secret THEN
    NEW.ticket_secret := new_ticket_secret();
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER participants_ticket_secret BEFORE INSERT OR UPDATE OF ticket_code, ticket_secret ON participants
  FOR EACH ROW EXECUTE FUNCTION participants_ticket_secret();
--> statement-breakpoint
UPDATE "participants" SET "ticket_secret" = new_ticket_secret() WHERE "ticket_code" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "participants" ADD CONSTRAINT "participants_ticket_has_secret" CHECK (("participants"."ticket_code" IS NULL) = ("participants"."ticket_secret" IS NULL));
