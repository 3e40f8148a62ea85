CREATE TABLE "mail_schedule_runs" (
	"id" serial PRIMARY KEY NOT NULL,
	"schedule_id" integer NOT NULL,
	"key" varchar(120) NOT NULL,
	"period" varchar(80) NOT NULL,
	"dealer_id" integer,
	"mails" integer DEFAULT 0 NOT NULL,
	"build_ms" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mail_schedules" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" varchar(40) NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"weekday" integer,
	"hour" integer,
	"recipients" varchar(2000),
	"updated_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mail_schedules_kind_unique" UNIQUE("kind")
);
--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "attachments" jsonb;--> statement-breakpoint
ALTER TABLE "mail_schedule_runs" ADD CONSTRAINT "mail_schedule_runs_schedule_id_mail_schedules_id_fk" FOREIGN KEY ("schedule_id") REFERENCES "public"."mail_schedules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mail_schedule_runs" ADD CONSTRAINT "mail_schedule_runs_dealer_id_dealers_id_fk" FOREIGN KEY ("dealer_id") REFERENCES "public"."dealers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mail_schedules" ADD CONSTRAINT "mail_schedules_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "mail_schedule_runs_key_idx" ON "mail_schedule_runs" USING btree ("schedule_id","key");--> statement-breakpoint
INSERT INTO "mail_schedules" ("kind", "enabled", "weekday", "hour") VALUES ('resumen_mensual', false, NULL, NULL), ('tablero_semanal', false, 1, 8) ON CONFLICT ("kind") DO NOTHING;
