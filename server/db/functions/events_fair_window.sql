-- A fair opening's window: reaching TICKET_OPEN with fair_window_seconds > 0 and no draw yet sets fair_draw_at to
-- now + the window; leaving TICKET_OPEN before the draw clears it.
-- Migrations: 0011 (the last holds this definition).
CREATE OR REPLACE FUNCTION events_fair_window() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.state = 'TICKET_OPEN' AND (TG_OP = 'INSERT' OR OLD.state IS DISTINCT FROM 'TICKET_OPEN')
     AND NEW.fair_window_seconds > 0 AND NEW.fair_drawn_at IS NULL AND NEW.is_ticket_feature_enabled THEN
    NEW.fair_draw_at := now() + make_interval(secs => NEW.fair_window_seconds);
  ELSIF TG_OP = 'UPDATE' AND OLD.state = 'TICKET_OPEN' AND NEW.state <> 'TICKET_OPEN' AND NEW.fair_drawn_at IS NULL THEN
    NEW.fair_draw_at := NULL;
  END IF;
  RETURN NEW;
END
$$;
