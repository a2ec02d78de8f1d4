-- Keeps events.tickets_held equal to the places held for payment (issue 35): a TICKET payment PENDING or
-- AWAITING_CONFIRMATION, not a second payment (double_of), on every insert, delete and update of a payment, so no
-- code path can forget it; the CHECK events_tickets_within_count bounds tickets_sold + tickets_held by ticket_count.
-- A transaction that sets campus.bulk_holds to 'on' moves the counter itself, once for a statement of holds
-- (fair_draw(), for its winners; claim_tickets(), for a batch of claims). When a hold is paid its payment leaves the
-- hold before the ticket is collected, so the sum never passes the count in between. Any transaction that changes a hold takes the event row first.
-- Migrations: 0020 (the last holds this definition).
CREATE OR REPLACE FUNCTION payments_count_holds() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  was boolean := false;
  now_held boolean := false;
BEGIN
  IF current_setting('campus.bulk_holds', true) = 'on' THEN
    RETURN NULL;
  END IF;
  IF TG_OP <> 'INSERT' THEN
    was := OLD.kind = 'TICKET' AND OLD.status IN ('PENDING', 'AWAITING_CONFIRMATION') AND OLD.double_of IS NULL;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    now_held := NEW.kind = 'TICKET' AND NEW.status IN ('PENDING', 'AWAITING_CONFIRMATION') AND NEW.double_of IS NULL;
  END IF;
  IF was AND now_held AND OLD.event_id = NEW.event_id THEN
    RETURN NULL;
  END IF;
  IF was THEN
    UPDATE events SET tickets_held = tickets_held - 1 WHERE id = OLD.event_id;
  END IF;
  IF now_held THEN
    UPDATE events SET tickets_held = tickets_held + 1 WHERE id = NEW.event_id;
  END IF;
  RETURN NULL;
END
$$;
