-- Keeps events.tickets_sold equal to the participants holding a ticket, on every insert, delete and update of a
-- participant, so no code path can forget it. A transaction that sets campus.bulk_tickets to 'on' (set_config(...,
-- true)) moves the counter itself, once for a whole statement of tickets (fair_draw(), for its winners). Any
-- transaction that changes a ticket holder takes the event row first (the lock order of claim_tickets()).
-- Migrations: 0004, 0011 (the last holds this definition).
CREATE OR REPLACE FUNCTION participants_count_tickets() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('campus.bulk_tickets', true) = 'on' THEN
    RETURN NULL;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.ticket_collected THEN
    UPDATE events SET tickets_sold = tickets_sold - 1 WHERE id = OLD.event_id;
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') AND NEW.ticket_collected THEN
    UPDATE events SET tickets_sold = tickets_sold + 1 WHERE id = NEW.event_id;
  END IF;
  RETURN NULL;
END
$$;
