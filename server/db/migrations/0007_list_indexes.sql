-- Bounded lists (issue 15): the narrow reads of POST /event/p/get filter on an event's first and last date (the
-- calendar's month) and order by the first date; the parent (child events) and the state (home) already have
-- their indexes (events_parent, events_state), the caller's participations theirs (participants_user).
CREATE INDEX IF NOT EXISTS "events_first_date" ON "events" USING btree (("dates"->>0), "id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "events_last_date" ON "events" USING btree (("dates"->>-1));
