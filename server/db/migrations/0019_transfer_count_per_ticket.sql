-- The transfer count belongs to a ticket, not to a student's place (issue 36 item 7): after s0 -> s10 -> s11 and a give-back,
-- s11's fresh claim could not be transferred ("already changed hands 2 times"). A give-back now clears it; rows left
-- with a count and no ticket are cleared here, and the CHECK keeps it so whatever path takes a ticket away.
UPDATE "participants" SET "ticket_transfers" = 0 WHERE NOT "ticket_collected" AND "ticket_transfers" <> 0;--> statement-breakpoint
ALTER TABLE "participants" ADD CONSTRAINT "participants_transfers_with_ticket" CHECK ("participants"."ticket_collected" OR "participants"."ticket_transfers" = 0);