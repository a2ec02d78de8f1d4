-- Issue 21, items 9 and 8.
--
-- uploads: an organiser's stored image (<name>.webp and <name>-card.webp in UPLOADS_DIR), with its bytes, counted
-- against the organiser's quota (UPLOAD_QUOTA_MB) until its files are removed (one no event or council uses is
-- removed a day after its upload). Images uploaded before this migration have no row: they count for nobody.
CREATE TABLE "uploads" (
	"name" text PRIMARY KEY NOT NULL,
	"uploaded_by" integer,
	"bytes" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "uploads" ADD CONSTRAINT "uploads_uploaded_by_users_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "uploads_uploaded_by" ON "uploads" USING btree ("uploaded_by");

--> statement-breakpoint
-- One level of children, the one rule of the console's save and the importer (issue 21 item 8): an event's parent
-- is a top-level event, and an event with children has no parent itself (the app lists a parent's children; a
-- child of a child would be shown nowhere, and chains could loop). The console and the importer check it first,
-- to answer in their own words; this trigger decides when two saves race: the parent is locked FOR SHARE (an
-- update that gives the parent a parent of its own waits for this one, and then finds the child), and the children
-- are read with a fresh snapshot after the row's own lock.
CREATE OR REPLACE FUNCTION events_one_level_of_children() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.parent_id IS NULL OR (TG_OP = 'UPDATE' AND OLD.parent_id IS NOT DISTINCT FROM NEW.parent_id) THEN
    RETURN NEW;
  END IF;
  IF NEW.parent_id = NEW.id THEN
    RAISE EXCEPTION 'an event cannot be its own parent' USING ERRCODE = 'check_violation', CONSTRAINT = 'events_parent_top_level';
  END IF;
  PERFORM 1 FROM events WHERE id = NEW.parent_id AND parent_id IS NULL FOR SHARE;
  IF NOT FOUND AND EXISTS (SELECT 1 FROM events WHERE id = NEW.parent_id) THEN
    RAISE EXCEPTION 'the parent event % is itself a child event', NEW.parent_id USING ERRCODE = 'check_violation', CONSTRAINT = 'events_parent_top_level';
  END IF;
  IF EXISTS (SELECT 1 FROM events WHERE parent_id = NEW.id) THEN
    RAISE EXCEPTION 'event % has child events, so it cannot have a parent', NEW.id USING ERRCODE = 'check_violation', CONSTRAINT = 'events_parent_childless';
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER events_one_level_of_children BEFORE INSERT OR UPDATE OF parent_id ON events
  FOR EACH ROW EXECUTE FUNCTION events_one_level_of_children();
