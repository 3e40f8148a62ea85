CREATE TABLE "background_jobs" (
	"id" uuid PRIMARY KEY NOT NULL,
	"kind" varchar(40) NOT NULL,
	"permission" varchar(80) NOT NULL,
	"user_id" integer NOT NULL,
	"dealer_id" integer,
	"status" varchar(12) DEFAULT 'queued' NOT NULL,
	"done" integer DEFAULT 0 NOT NULL,
	"total" integer,
	"step" varchar(200),
	"result" jsonb,
	"error" varchar(1000),
	"input_key" varchar(200),
	"file_key" varchar(200),
	"file_name" varchar(200),
	"attempts" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "background_jobs" ADD CONSTRAINT "background_jobs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "background_jobs" ADD CONSTRAINT "background_jobs_dealer_id_dealers_id_fk" FOREIGN KEY ("dealer_id") REFERENCES "public"."dealers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "background_jobs_user_idx" ON "background_jobs" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "background_jobs_expires_idx" ON "background_jobs" USING btree ("expires_at");