-- A batch of ticket claims for one event, one word per claim in the order given:
--   claimed | held:<pay_by, ISO UTC> | in_draw:<draw_at, ISO UTC> | draw_pending | not_found | cancelled | not_open | not_registered |
--   already | team_incomplete | sold_out
-- On an event with a fee (issue 35) a claim that would collect a ticket holds the place instead: a PENDING payment
-- until pay_by (tickets_held counts it, under the same lock and CHECK as tickets_sold); a student already holding one
-- gets it again.
-- The server (server/db/tickets/claims.ts) sends the claims that arrive while the previous batch is in the database as one
-- call: one lock of the event row and one commit for the batch. Never more than ticket_count: while tickets are left
-- the event row is locked FOR UPDATE before any participant row (one lock order for every claim), and the places held
-- for waitlist offers are counted under that lock; a student holding an unexpired offer claims the place held for
-- them. One ticket per student: the participant row is updated only where ticket_collected is false. In a fair
-- opening's window (fair_draw_at in the future, not drawn) a claim is an entry into fair_entrants, with its draw key,
-- under a FOR SHARE lock of the event row that the draw's FOR UPDATE waits for; after the window and before the draw
-- it answers draw_pending (the server runs the draw and claims again). The read before the lock only refuses early.
-- The counter itself is moved by the participants triggers (participants_count_tickets); the CHECK
-- events_tickets_within_count is the backstop.
-- The draw key is HMAC-SHA256(seed, '<user id>:<nonce>') (API.md Part 3): p_nonces[i] is the entrant's nonce, made by
-- the app (or the server); a second entry keeps the first (ON CONFLICT DO NOTHING), so the key never changes.
-- Migrations: 0002, 0004, 0006, 0011, 0013, 0018, 0020, 0021, 0022 (the last holds this definition).
CREATE OR REPLACE FUNCTION claim_tickets(p_event_id integer, p_user_ids integer[], p_codes text[], p_nonces text[]) RETURNS text[]
LANGUAGE plpgsql AS $$
DECLARE
  ev record;
  n integer := coalesce(cardinality(p_user_ids), 0);
  statuses text[] := '{}';
  collected boolean;
  team integer;
  members integer;
  held integer;
  my_offer boolean;
  draw_at timestamptz;
  pads bytea[];
  i integer;
  pid integer;
  hold_until timestamptz;
  holds_made integer := 0;
  refusal text;
BEGIN
  IF n <> coalesce(cardinality(p_codes), 0) OR n <> coalesce(cardinality(p_nonces), 0) THEN
    RAISE EXCEPTION 'claim_tickets: % students but % codes and % nonces', n, cardinality(p_codes), cardinality(p_nonces);
  END IF;
  SELECT e.state, e.is_ticket_feature_enabled, e.tickets_sold, e.tickets_held, e.ticket_count, e.min_ppt, e.fair_draw_at, e.fair_drawn_at, e.fair_seed,
         e.fee, e.pay_within_minutes, e.cancelled_at INTO ev
    FROM events e WHERE e.id = p_event_id;
  IF NOT FOUND OR ev.state = 'DRAFT' THEN
    RETURN array_fill('not_found'::text, ARRAY[n]);
  END IF;
  IF ev.cancelled_at IS NOT NULL THEN
    RETURN array_fill('cancelled'::text, ARRAY[n]);
  END IF;
  IF ev.state = 'TICKET_OPEN' AND ev.is_ticket_feature_enabled AND ev.fair_draw_at IS NOT NULL AND ev.fair_drawn_at IS NULL THEN
    IF ev.fair_draw_at <= now() THEN
      RETURN array_fill('draw_pending'::text, ARRAY[n]);
    END IF;
    SELECT e.fair_draw_at INTO draw_at FROM events e
      WHERE e.id = p_event_id AND e.state = 'TICKET_OPEN' AND e.is_ticket_feature_enabled AND e.fair_drawn_at IS NULL AND e.fair_draw_at > now()
      FOR SHARE;
    IF FOUND THEN
      pads := fair_pads(ev.fair_seed);
      INSERT INTO fair_entrants (event_id, user_id, key, nonce)
        SELECT p_event_id, p.user_id, encode(sha256(pads[2] || sha256(pads[1] || convert_to(p.user_id::text || ':' || c.nonce, 'UTF8'))), 'hex'), c.nonce
          FROM participants p
          JOIN unnest(p_user_ids, p_nonces) AS c(user_id, nonce) ON c.user_id = p.user_id
          WHERE p.event_id = p_event_id AND NOT p.ticket_collected
            AND (ev.min_ppt <= 1 OR p.team_id IS NULL OR (SELECT count(*) FROM participants m WHERE m.team_id = p.team_id) >= ev.min_ppt)
        ON CONFLICT DO NOTHING;
      SELECT array_agg(CASE WHEN p.user_id IS NULL THEN 'not_registered'
                            WHEN f.user_id IS NOT NULL THEN 'in_draw:' || to_char(draw_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
                            WHEN p.ticket_collected THEN 'already'
                            ELSE 'team_incomplete' END ORDER BY u.ord)
        INTO statuses
        FROM unnest(p_user_ids) WITH ORDINALITY AS u(id, ord)
        LEFT JOIN participants p ON p.event_id = p_event_id AND p.user_id = u.id
        LEFT JOIN fair_entrants f ON f.event_id = p_event_id AND f.user_id = u.id;
      RETURN statuses;
    END IF;
    -- The draw ran (or the event moved) while this waited: the claim goes on first come, first served.
    SELECT e.state, e.is_ticket_feature_enabled, e.tickets_sold, e.tickets_held, e.ticket_count, e.min_ppt, e.fair_draw_at, e.fair_drawn_at, e.fair_seed,
           e.fee, e.pay_within_minutes, e.cancelled_at INTO ev
      FROM events e WHERE e.id = p_event_id;
    IF ev.state = 'TICKET_OPEN' AND ev.is_ticket_feature_enabled AND ev.fair_draw_at IS NOT NULL AND ev.fair_drawn_at IS NULL THEN
      RETURN array_fill('draw_pending'::text, ARRAY[n]);
    END IF;
  END IF;
  IF ev.tickets_sold + ev.tickets_held < ev.ticket_count AND ev.state = 'TICKET_OPEN' AND ev.is_ticket_feature_enabled THEN
    SELECT e.state, e.is_ticket_feature_enabled, e.tickets_sold, e.tickets_held, e.ticket_count, e.min_ppt, e.fee, e.pay_within_minutes INTO ev
      FROM events e WHERE e.id = p_event_id FOR UPDATE;
  END IF;
  IF ev.state <> 'TICKET_OPEN' OR NOT ev.is_ticket_feature_enabled THEN
    RETURN array_fill('not_open'::text, ARRAY[n]);
  END IF;
  -- Under the event's lock: the places held for offered students (read once; moved below as offers are taken).
  SELECT count(*) INTO held FROM waitlist w WHERE w.event_id = p_event_id AND w.offered_at IS NOT NULL;
  -- A paid event's holds are counted once for the batch, after the loop (payments_count_holds steps aside while
  -- campus.bulk_holds is on): one update of the event's row instead of one per hold, and no new version of the row
  -- for each hold's foreign-key check to find.
  IF ev.fee > 0 THEN
    PERFORM set_config('campus.bulk_holds', 'on', true);
  END IF;

  FOR i IN 1 .. n LOOP
    SELECT p.id, p.ticket_collected, p.team_id INTO pid, collected, team
      FROM participants p WHERE p.event_id = p_event_id AND p.user_id = p_user_ids[i];
    IF collected IS NULL THEN
      statuses := statuses || 'not_registered'::text;
      CONTINUE;
    END IF;
    IF collected THEN
      statuses := statuses || 'already'::text;
      CONTINUE;
    END IF;
    refusal := NULL;
    IF ev.min_ppt > 1 AND team IS NOT NULL THEN
      SELECT count(*) INTO members FROM participants p WHERE p.team_id = team;
      IF members < ev.min_ppt THEN
        refusal := 'team_incomplete';
      END IF;
    END IF;
    IF refusal IS NULL THEN
      my_offer := held > 0 AND EXISTS (
        SELECT 1 FROM waitlist w WHERE w.event_id = p_event_id AND w.user_id = p_user_ids[i] AND w.offer_expires_at > now());
      IF ev.tickets_sold + ev.tickets_held >= ev.ticket_count OR (NOT my_offer AND ev.tickets_sold + ev.tickets_held + held >= ev.ticket_count) THEN
        refusal := 'sold_out';
      END IF;
    END IF;
    IF refusal IS NOT NULL THEN
      -- A paid event (issue 35): a student whose place is already held gets that hold again, full or not (a retried
      -- claim is safe). Looked up only on a refusal and when the insert below meets the hold: a lookup on every
      -- claim ran on a generic plan over a payments table that grew through the rush (holds at 0.6x free claims).
      IF ev.fee > 0 THEN
        SELECT y.pay_by INTO hold_until FROM payments y
          WHERE y.event_id = p_event_id AND y.user_id = p_user_ids[i] AND y.status IN ('PENDING', 'AWAITING_CONFIRMATION') AND y.double_of IS NULL;
        IF FOUND THEN
          statuses := statuses || ('held:' || to_char(hold_until AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'));
          CONTINUE;
        END IF;
      END IF;
      statuses := statuses || refusal;
      CONTINUE;
    END IF;
    IF ev.fee > 0 THEN
      -- The place is held for its payment (counted in tickets_held after the loop); the ticket comes once paid.
      -- The claim's random code becomes the hold's reference (in the UPI note, at the desk), never a ticket's code.
      -- A live payment of the student's already (payments_live): that hold again, nothing inserted; a paid one (a
      -- registration paid before the event took tickets) is answered as a place already theirs.
      hold_until := now() + make_interval(mins => ev.pay_within_minutes);
      INSERT INTO payments (event_id, user_id, participant_id, kind, amount, reference, pay_by)
        VALUES (p_event_id, p_user_ids[i], pid, 'TICKET', ev.fee * 100, 'CE' || p_codes[i], hold_until)
        ON CONFLICT (event_id, user_id) WHERE status IN ('PENDING', 'AWAITING_CONFIRMATION', 'PAID') AND double_of IS NULL DO NOTHING;
      IF NOT FOUND THEN
        SELECT y.pay_by INTO hold_until FROM payments y
          WHERE y.event_id = p_event_id AND y.user_id = p_user_ids[i] AND y.status IN ('PENDING', 'AWAITING_CONFIRMATION') AND y.double_of IS NULL;
        statuses := statuses || CASE WHEN FOUND THEN 'held:' || to_char(hold_until AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') ELSE 'already' END;
        CONTINUE;
      END IF;
      ev.tickets_held := ev.tickets_held + 1;
      holds_made := holds_made + 1;
    ELSE
      UPDATE participants SET ticket_collected = true, ticket_code = p_codes[i], ticket_collected_at = now()
        WHERE event_id = p_event_id AND user_id = p_user_ids[i] AND ticket_collected = false;
      IF NOT FOUND THEN
        statuses := statuses || 'already'::text;
        CONTINUE;
      END IF;
      ev.tickets_sold := ev.tickets_sold + 1;
    END IF;
    DELETE FROM waitlist w WHERE w.event_id = p_event_id AND w.user_id = p_user_ids[i];
    IF my_offer THEN
      held := held - 1;
    END IF;
    IF ev.fee > 0 THEN
      statuses := statuses || ('held:' || to_char(hold_until AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'));
    ELSE
      statuses := statuses || 'claimed'::text;
    END IF;
  END LOOP;
  IF ev.fee > 0 THEN
    PERFORM set_config('campus.bulk_holds', 'off', true);
    IF holds_made > 0 THEN
      UPDATE events SET tickets_held = tickets_held + holds_made WHERE id = p_event_id;
    END IF;
  END IF;
  RETURN statuses;
END
$$;
