ALTER TABLE "quiz_answers" ADD COLUMN "dealer_id" integer;--> statement-breakpoint
ALTER TABLE "quiz_answers" ADD COLUMN "kind" varchar(20);--> statement-breakpoint
ALTER TABLE "quiz_answers" ADD COLUMN "sale_date" date;--> statement-breakpoint
ALTER TABLE "quiz_answers" ADD COLUMN "manufacturer_id" integer;--> statement-breakpoint
ALTER TABLE "quiz_responses" ADD COLUMN "kind" varchar(20);--> statement-breakpoint
ALTER TABLE "quiz_responses" ADD COLUMN "sale_date" date;--> statement-breakpoint
ALTER TABLE "quiz_responses" ADD COLUMN "manufacturer_id" integer;--> statement-breakpoint
CREATE INDEX "quiz_answers_stats_idx" ON "quiz_answers" USING btree ("sale_date","kind","dealer_id","manufacturer_id","rating");--> statement-breakpoint
CREATE INDEX "quiz_responses_stats_idx" ON "quiz_responses" USING btree ("sale_date","sale_id","kind");--> statement-breakpoint
-- The copies are kept by the database on every write path (the public survey, imports, the demo,
-- a sale or questionnaire edited later), so the statistics can never read a stale one.
CREATE FUNCTION "quiz_response_copies"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT s.sale_date, s.manufacturer_id INTO NEW.sale_date, NEW.manufacturer_id FROM sales s WHERE s.id = NEW.sale_id;
  SELECT q.kind INTO NEW.kind FROM quizzes q WHERE q.id = NEW.quiz_id;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER "quiz_responses_copies" BEFORE INSERT OR UPDATE OF sale_id, quiz_id, kind, sale_date, manufacturer_id ON "quiz_responses" FOR EACH ROW EXECUTE FUNCTION "quiz_response_copies"();
--> statement-breakpoint
CREATE FUNCTION "quiz_answer_copies"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT s.dealer_id, r.kind, s.sale_date, s.manufacturer_id
    INTO NEW.dealer_id, NEW.kind, NEW.sale_date, NEW.manufacturer_id
    FROM quiz_responses r JOIN sales s ON s.id = r.sale_id WHERE r.id = NEW.response_id;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER "quiz_answers_copies" BEFORE INSERT OR UPDATE OF response_id, dealer_id, kind, sale_date, manufacturer_id ON "quiz_answers" FOR EACH ROW EXECUTE FUNCTION "quiz_answer_copies"();
--> statement-breakpoint
-- A response's copies changed (its sale or questionnaire did): its answers follow.
CREATE FUNCTION "quiz_response_answers_follow"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE quiz_answers SET response_id = response_id WHERE response_id = NEW.id;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- (any UPDATE: the copies change in the BEFORE trigger, which UPDATE OF would not see)
CREATE TRIGGER "quiz_responses_answers_follow" AFTER UPDATE ON "quiz_responses" FOR EACH ROW
  WHEN (OLD.kind IS DISTINCT FROM NEW.kind OR OLD.sale_date IS DISTINCT FROM NEW.sale_date OR OLD.manufacturer_id IS DISTINCT FROM NEW.manufacturer_id)
  EXECUTE FUNCTION "quiz_response_answers_follow"();
--> statement-breakpoint
CREATE FUNCTION "sale_quiz_copies_follow"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE quiz_responses SET sale_id = sale_id WHERE sale_id = NEW.id;
  IF OLD.dealer_id IS DISTINCT FROM NEW.dealer_id THEN
    UPDATE quiz_answers SET response_id = response_id WHERE response_id IN (SELECT id FROM quiz_responses WHERE sale_id = NEW.id);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "sales_quiz_copies_follow" AFTER UPDATE OF sale_date, manufacturer_id, dealer_id ON "sales" FOR EACH ROW
  WHEN (OLD.sale_date IS DISTINCT FROM NEW.sale_date OR OLD.manufacturer_id IS DISTINCT FROM NEW.manufacturer_id OR OLD.dealer_id IS DISTINCT FROM NEW.dealer_id)
  EXECUTE FUNCTION "sale_quiz_copies_follow"();
--> statement-breakpoint
CREATE FUNCTION "quiz_kind_follow"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE quiz_responses SET quiz_id = quiz_id WHERE quiz_id = NEW.id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "quizzes_kind_follow" AFTER UPDATE OF kind ON "quizzes" FOR EACH ROW
  WHEN (OLD.kind IS DISTINCT FROM NEW.kind) EXECUTE FUNCTION "quiz_kind_follow"();
--> statement-breakpoint
UPDATE "quiz_responses" SET "sale_id" = "sale_id";
--> statement-breakpoint
UPDATE "quiz_answers" SET "response_id" = "response_id";
