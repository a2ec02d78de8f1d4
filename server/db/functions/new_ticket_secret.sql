-- A ticket's secret (the key of its rotating time code): 40 hex digits from two v4 UUIDs, 154 of their bits
-- random (gen_random_uuid() is core since PostgreSQL 13, PGlite too: no pgcrypto).
-- Migrations: 0016 (the last holds this definition).
CREATE OR REPLACE FUNCTION new_ticket_secret() RETURNS text
LANGUAGE sql VOLATILE AS $$
  SELECT substr(replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', ''), 1, 40)
$$;
