-- One student per mobile number and per student ID (issue 14): /user/p/update answers 409 when the unique index
-- refuses a number another student holds.
-- A database from before this migration may already hold duplicates, which would make the indexes fail to build
-- and the server fail to start. The account that has held a number longest (the earliest created) keeps it; on
-- every other account it is cleared, so those students are sent to the onboarding again at their next visit
-- (a missing phone or roll number does that, SPEC §1) and enter their own. Nothing else of theirs changes.
UPDATE "users" SET "phone_number" = NULL, "updated_at" = now()
WHERE "id" IN (
  SELECT "id" FROM (
    SELECT "id", row_number() OVER (PARTITION BY "phone_number" ORDER BY "created_at", "id") AS "n"
    FROM "users" WHERE "phone_number" IS NOT NULL
  ) AS "ranked" WHERE "n" > 1
);--> statement-breakpoint
UPDATE "users" SET "roll_number" = NULL, "updated_at" = now()
WHERE "id" IN (
  SELECT "id" FROM (
    SELECT "id", row_number() OVER (PARTITION BY lower("roll_number") ORDER BY "created_at", "id") AS "n"
    FROM "users" WHERE "roll_number" IS NOT NULL
  ) AS "ranked" WHERE "n" > 1
);--> statement-breakpoint
CREATE UNIQUE INDEX "users_phone_number" ON "users" USING btree ("phone_number");--> statement-breakpoint
CREATE UNIQUE INDEX "users_roll_number" ON "users" USING btree (lower("roll_number"));
