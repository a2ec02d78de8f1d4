-- An event that leaves TICKET_OPEN has no waitlist any more (offers cleared with it); reaching TICKET_OPEN queues
-- "Tickets are open" in the inbox of its registered students without a ticket (a manual move or the scheduler alike);
-- inbox_messages_push queues the push for those with a subscription.
-- Migrations: 0006, 0023 (the last holds this definition).
CREATE OR REPLACE FUNCTION events_state_waitlist_push() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.state = 'TICKET_OPEN' AND NEW.state <> 'TICKET_OPEN' THEN
    DELETE FROM waitlist WHERE event_id = NEW.id;
  END IF;
  IF NEW.state = 'TICKET_OPEN' AND OLD.state <> 'TICKET_OPEN' AND NEW.is_ticket_feature_enabled THEN
    INSERT INTO inbox_messages (user_id, title, body, url, tag)
      SELECT p.user_id, 'Tickets are open', 'Collect your ticket for ' || NEW.name || ' now.', '/event-details/' || NEW.id, 'open-' || NEW.id
        FROM participants p
        WHERE p.event_id = NEW.id AND NOT p.ticket_collected;
  END IF;
  RETURN NULL;
END
$$;
