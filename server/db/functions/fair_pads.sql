-- HMAC-SHA256's inner and outer padded keys (RFC 2104) for a seed used as the key: the same bytes as the server's
-- hmacPads() (server/db/tickets/fair.ts), so that a key computed here equals drawKey(seed, user id).
-- Migrations: 0013 (the last holds this definition).
CREATE OR REPLACE FUNCTION fair_pads(p_seed text) RETURNS bytea[]
LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  k bytea := convert_to(p_seed, 'UTF8');
  ipad bytea;
  opad bytea;
  i integer;
BEGIN
  IF length(k) > 64 THEN
    k := sha256(k);
  END IF;
  k := k || decode(repeat('00', 64 - length(k)), 'hex');
  ipad := k;
  opad := k;
  FOR i IN 0 .. 63 LOOP
    ipad := set_byte(ipad, i, get_byte(k, i) # 54);
    opad := set_byte(opad, i, get_byte(k, i) # 92);
  END LOOP;
  RETURN ARRAY[ipad, opad];
END
$$;
