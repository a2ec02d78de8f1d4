-- One level of children: an event's parent is a top-level event, and an event with children has no parent itself.
-- The console and the importer check it first, to answer in their own words; this trigger decides when two saves
-- race: the parent is locked FOR SHARE, and the children are read with a fresh snapshot after the row's own lock.
-- Migrations: 0010 (the last holds this definition).
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
