CREATE TABLE "server_secrets" (
	"key" varchar(80) PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "login_attempts" ADD COLUMN "user_id" integer;--> statement-breakpoint
ALTER TABLE "login_attempts" ADD CONSTRAINT "login_attempts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "login_attempts_user_at_idx" ON "login_attempts" USING btree ("user_id","at");--> statement-breakpoint
CREATE INDEX "login_attempts_at_idx" ON "login_attempts" USING btree ("at");--> statement-breakpoint
-- Data changes (written by hand after drizzle-kit generate). They come before the unique
-- indexes below, which need them.
-- 1. The generated token-signing secret leaves `configurations` (which administrators edit) for
--    `server_secrets` (which no call reads or writes). An empty one is dropped: a new one is
--    generated on the next start.
INSERT INTO "server_secrets" ("key", "value")
	SELECT "key", "value" FROM "configurations"
	WHERE "key" = 'jwt_secret' AND "value" IS NOT NULL AND btrim("value") <> ''
	ON CONFLICT ("key") DO NOTHING;--> statement-breakpoint
DELETE FROM "configurations" WHERE "key" = 'jwt_secret';--> statement-breakpoint
-- 2. E-mails are stored trimmed and lower-cased. When several accounts share one address that
--    way, the lowest id keeps it and each other one gets usuario-<id>@correo-duplicado.invalid
--    (a reserved domain that receives nothing) until an administrator sets the right address.
UPDATE "users" u SET "email" = 'usuario-' || u."id" || '@correo-duplicado.invalid'
	WHERE EXISTS (
		SELECT 1 FROM "users" o
		WHERE o."id" < u."id" AND lower(btrim(o."email")) = lower(btrim(u."email"))
	);--> statement-breakpoint
UPDATE "users" SET "email" = lower(btrim("email")) WHERE "email" <> lower(btrim("email"));--> statement-breakpoint
-- 3. User names are unique whatever their case. The lowest id keeps its name; each other one
--    becomes <name>~<id> ("~" is refused by the user form, so it matches no other name) until an
--    administrator renames it.
UPDATE "users" u SET "username" = left(u."username", 69) || '~' || u."id"
	WHERE EXISTS (
		SELECT 1 FROM "users" o WHERE o."id" < u."id" AND lower(o."username") = lower(u."username")
	);--> statement-breakpoint
-- 4. Attempts older than a day no longer count for anything.
DELETE FROM "login_attempts" WHERE "at" < now() - interval '1 day';--> statement-breakpoint
CREATE UNIQUE INDEX "users_username_lower_uq" ON "users" USING btree (lower("username"));--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_normalised_uq" ON "users" USING btree (lower(btrim("email")));