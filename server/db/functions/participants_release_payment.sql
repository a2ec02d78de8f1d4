-- No rupee lost when a place goes away (issue 35): a participant deleted with a live payment (a member removed, a
-- team deleted, an account deleted, an unpaid registration dropped) leaves it refunding if it was PAID (the refund job
-- pays it back), or expired if it was still held (a UTR given stays on the row: a statement that shows the money later
-- refunds it). The place itself is released by the counters' triggers.
-- Migrations: 0020 (the last holds this definition).
CREATE OR REPLACE FUNCTION participants_release_payment() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE payments
     SET status = CASE WHEN status = 'PAID' THEN 'REFUND_PENDING' ELSE 'EXPIRED' END,
         refund_requested_at = CASE WHEN status = 'PAID' THEN now() ELSE refund_requested_at END,
         expired_at = CASE WHEN status = 'PAID' THEN expired_at ELSE now() END
   WHERE participant_id = OLD.id AND status IN ('PENDING', 'AWAITING_CONFIRMATION', 'PAID') AND double_of IS NULL;
  RETURN OLD;
END
$$;
