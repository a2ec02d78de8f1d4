-- What a calendar app needs to replace an event rather than duplicate it: calendar_sequence and
-- calendar_modified_at rise whenever what the feed shows of the event changes (name, description, dates and their
-- ends, venue, end, state), kept by the database so no code path that edits an event can forget them.
-- Migrations: 0008, 0014 (the last holds this definition).
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
