-- Every new ticket code gets a new secret, whichever path sets it (claim_tickets(), fair_draw(), the waitlist's
-- offer, a transfer, the demo), so the old holder's secret stops working with the old code; no code, no secret; a
-- write that sets a secret itself (tests) keeps it.
-- Migrations: 0016 (the last holds this definition).
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
