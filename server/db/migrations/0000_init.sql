CREATE TYPE "public"."event_state" AS ENUM('UPCOMING', 'REGISTRATION_OPEN', 'REGISTRATION_CLOSED', 'TICKET_OPEN', 'TICKET_CLOSED', 'ONGOING', 'COMPLETED');--> statement-breakpoint
CREATE TYPE "public"."gender" AS ENUM('MALE', 'FEMALE');--> statement-breakpoint
CREATE TYPE "public"."registration_type" AS ENUM('EXTERNAL', 'ONPLATFORM');--> statement-breakpoint
CREATE TABLE "attempt_counters" (
	"key" text PRIMARY KEY NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	"window_started_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "councils" (
	"id" serial PRIMARY KEY NOT NULL,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"photo_url" text,
	"phone_number" text,
	"email" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "councils_slug_unique" UNIQUE("slug")
);
--> statement-breakpoint
CREATE TABLE "events" (
	"id" serial PRIMARY KEY NOT NULL,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"long_description" text DEFAULT '' NOT NULL,
	"event_page_image_url" text,
	"banner_url" text,
	"dates" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"venue" text DEFAULT '' NOT NULL,
	"tags" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"organizer_id" integer NOT NULL,
	"parent_id" integer,
	"state" "event_state" DEFAULT 'UPCOMING' NOT NULL,
	"fee" integer DEFAULT 0 NOT NULL,
	"ma_ppt" integer DEFAULT 1 NOT NULL,
	"registration_type" "registration_type" DEFAULT 'ONPLATFORM' NOT NULL,
	"external_registration_link" text,
	"start_in_event_activity" boolean DEFAULT false NOT NULL,
	"in_event_activity" text,
	"is_ticket_feature_enabled" boolean DEFAULT false NOT NULL,
	"ticket_count" integer DEFAULT 0 NOT NULL,
	"tickets_sold" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "events_slug_unique" UNIQUE("slug"),
	CONSTRAINT "events_fee_nonnegative" CHECK ("events"."fee" >= 0),
	CONSTRAINT "events_ma_ppt_positive" CHECK ("events"."ma_ppt" >= 1),
	CONSTRAINT "events_tickets_within_count" CHECK ("events"."tickets_sold" >= 0 AND "events"."tickets_sold" <= "events"."ticket_count")
);
--> statement-breakpoint
CREATE TABLE "participants" (
	"id" serial PRIMARY KEY NOT NULL,
	"event_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"team_id" integer,
	"ticket_collected" boolean DEFAULT false NOT NULL,
	"ticket_code" text,
	"ticket_collected_at" timestamp with time zone,
	"rating" smallint,
	"rated_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "participants_rating_range" CHECK ("participants"."rating" IS NULL OR ("participants"."rating" BETWEEN 1 AND 5)),
	CONSTRAINT "participants_ticket_has_code" CHECK (("participants"."ticket_collected" AND "participants"."ticket_code" IS NOT NULL) OR (NOT "participants"."ticket_collected" AND "participants"."ticket_code" IS NULL))
);
--> statement-breakpoint
CREATE TABLE "refresh_families" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"absolute_expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"revoked_reason" text
);
--> statement-breakpoint
CREATE TABLE "refresh_tokens" (
	"id" serial PRIMARY KEY NOT NULL,
	"family_id" uuid NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	CONSTRAINT "refresh_tokens_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "teams" (
	"id" serial PRIMARY KEY NOT NULL,
	"event_id" integer NOT NULL,
	"name" text NOT NULL,
	"invite_code" text NOT NULL,
	"leader_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" serial PRIMARY KEY NOT NULL,
	"issuer" text NOT NULL,
	"subject" text NOT NULL,
	"email" text NOT NULL,
	"name" text NOT NULL,
	"photo_url" text,
	"college" text,
	"phone_number" text,
	"roll_number" text,
	"gender" "gender",
	"year" integer,
	"branch" text,
	"degree" text,
	"interests" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_organizer_id_councils_id_fk" FOREIGN KEY ("organizer_id") REFERENCES "public"."councils"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_parent_id_events_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."events"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "participants" ADD CONSTRAINT "participants_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "participants" ADD CONSTRAINT "participants_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "participants" ADD CONSTRAINT "participants_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refresh_families" ADD CONSTRAINT "refresh_families_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refresh_tokens" ADD CONSTRAINT "refresh_tokens_family_id_refresh_families_id_fk" FOREIGN KEY ("family_id") REFERENCES "public"."refresh_families"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "teams" ADD CONSTRAINT "teams_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "teams" ADD CONSTRAINT "teams_leader_id_users_id_fk" FOREIGN KEY ("leader_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "events_parent" ON "events" USING btree ("parent_id");--> statement-breakpoint
CREATE INDEX "events_state" ON "events" USING btree ("state");--> statement-breakpoint
CREATE UNIQUE INDEX "participants_event_user" ON "participants" USING btree ("event_id","user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "participants_ticket_code" ON "participants" USING btree ("ticket_code");--> statement-breakpoint
CREATE INDEX "participants_user" ON "participants" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "participants_team" ON "participants" USING btree ("team_id");--> statement-breakpoint
CREATE INDEX "refresh_tokens_family" ON "refresh_tokens" USING btree ("family_id");--> statement-breakpoint
CREATE UNIQUE INDEX "teams_event_name" ON "teams" USING btree ("event_id",lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "teams_event_invite_code" ON "teams" USING btree ("event_id","invite_code");--> statement-breakpoint
CREATE UNIQUE INDEX "users_identity" ON "users" USING btree ("issuer","subject");