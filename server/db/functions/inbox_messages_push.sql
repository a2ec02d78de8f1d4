-- Every message goes to the inbox (issue 37 item 2); this trigger, once per INSERT statement over the rows it
-- added, queues the push for the recipients who hold a subscription, so push_outbox keeps its sender and retries.
-- Migrations: 0023 (the last holds this definition).
CREATE OR REPLACE FUNCTION inbox_messages_push() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO push_outbox (user_id, title, body, url, tag)
    SELECT m.user_id, m.title, m.body, m.url, m.tag FROM inbox_added m
      WHERE EXISTS (SELECT 1 FROM push_subscriptions s WHERE s.user_id = m.user_id)
      ORDER BY m.id;
  RETURN NULL;
END
$$;
