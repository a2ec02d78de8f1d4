-- The push outbox retried (issue 13): a send the push service fails transiently (network error, timeout, 429, 5xx)
-- is queued again for that one subscription, after a backoff, up to 5 attempts in all (server/push/sender.ts).
--
-- attempts     sends tried before this row (0 for a new notification)
-- not_before   the row is not taken before this time (the backoff)
-- endpoint     NULL: every subscription of the student (a new notification); set: that subscription only, so a
--              retry never reaches again the student's other browsers, which had it already
-- The instance that took the failed row (DELETE ... FOR UPDATE SKIP LOCKED, so no other instance holds it)
-- inserts the retry row: one copy, never two.
ALTER TABLE push_outbox ADD COLUMN attempts integer NOT NULL DEFAULT 0;
--> statement-breakpoint
ALTER TABLE push_outbox ADD COLUMN not_before timestamp with time zone NOT NULL DEFAULT now();
--> statement-breakpoint
ALTER TABLE push_outbox ADD COLUMN endpoint text;
--> statement-breakpoint
CREATE INDEX push_outbox_due ON push_outbox (not_before);
