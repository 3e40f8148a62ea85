CREATE TABLE "survey_answer_months" (
	"dealer_id" integer NOT NULL,
	"manufacturer_id" integer NOT NULL,
	"kind" varchar(20) NOT NULL,
	"month" date NOT NULL,
	"question_id" integer NOT NULL,
	"question" varchar(500) NOT NULL,
	"answers" integer NOT NULL,
	"rating_answers" integer NOT NULL,
	"top" integer NOT NULL,
	"rating_sum" integer NOT NULL,
	CONSTRAINT "survey_answer_months_month_kind_dealer_id_manufacturer_id_question_id_question_pk" PRIMARY KEY("month","kind","dealer_id","manufacturer_id","question_id","question")
);
--> statement-breakpoint
CREATE TABLE "survey_sale_months" (
	"dealer_id" integer NOT NULL,
	"manufacturer_id" integer NOT NULL,
	"month" date NOT NULL,
	"sales" integer NOT NULL,
	"invited" integer NOT NULL,
	"answered" integer NOT NULL,
	"invalid_contacts" integer NOT NULL,
	"sales_responses" integer NOT NULL,
	"postventa_responses" integer NOT NULL,
	CONSTRAINT "survey_sale_months_month_dealer_id_manufacturer_id_pk" PRIMARY KEY("month","dealer_id","manufacturer_id")
);
--> statement-breakpoint
-- Monthly summaries of the survey facts (issue 28), kept by the database in the same statement as
-- every write to the rows they sum (the public survey, imports, batches, edits, deletes and their
-- cascades, the demo seed), so they never disagree with a recomputation from the raw rows.
--
-- survey_sale_months: the months of the given (dealer, brand, month) keys recomputed from the raw
-- rows. Each key's row is locked first (created if missing), then recomputed: a transaction that
-- changed the same month waits for the other's commit and recomputes with its rows (each statement
-- of the function reads a new snapshot), so two concurrent writers never keep a stale count.
CREATE FUNCTION "survey_sale_months_refresh"(k_dealer integer[], k_brand integer[], k_month date[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF coalesce(cardinality(k_dealer), 0) = 0 THEN RETURN; END IF;
  WITH k AS (SELECT DISTINCT d AS dealer_id, m AS manufacturer_id, mo AS month FROM unnest(k_dealer, k_brand, k_month) AS u(d, m, mo)
    WHERE d IS NOT NULL AND m IS NOT NULL AND mo IS NOT NULL)
  INSERT INTO survey_sale_months AS t
    SELECT k.dealer_id, k.manufacturer_id, k.month, 0, 0, 0, 0, 0, 0 FROM k
    ORDER BY k.month, k.dealer_id, k.manufacturer_id
    ON CONFLICT DO NOTHING;
  PERFORM 1 FROM survey_sale_months t JOIN (SELECT DISTINCT d AS dealer_id, m AS manufacturer_id, mo AS month
      FROM unnest(k_dealer, k_brand, k_month) AS u(d, m, mo)) k
    ON t.month = k.month AND t.dealer_id = k.dealer_id AND t.manufacturer_id = k.manufacturer_id
    ORDER BY t.month, t.dealer_id, t.manufacturer_id FOR UPDATE OF t;
  WITH k AS (SELECT DISTINCT d AS dealer_id, m AS manufacturer_id, mo AS month FROM unnest(k_dealer, k_brand, k_month) AS u(d, m, mo)
    WHERE d IS NOT NULL AND m IS NOT NULL AND mo IS NOT NULL)
  INSERT INTO survey_sale_months AS t
    SELECT k.dealer_id, k.manufacturer_id, k.month,
      count(s.id),
      count(s.id) FILTER (WHERE EXISTS (SELECT 1 FROM quiz_invitations i JOIN quizzes q ON q.id = i.quiz_id
        WHERE i.sale_id = s.id AND q.kind = 'sales')),
      count(s.id) FILTER (WHERE EXISTS (SELECT 1 FROM quiz_responses r WHERE r.sale_id = s.id AND r.kind = 'sales')),
      count(s.id) FILTER (WHERE s.email IS NULL OR s.email !~ '^[^[:space:]@]+@[^[:space:]@]+\.[^[:space:]@]+$'
        OR EXISTS (SELECT 1 FROM quiz_invitations i WHERE i.sale_id = s.id AND i.email_status = 'failed')),
      coalesce(sum((SELECT count(*) FROM quiz_responses r WHERE r.sale_id = s.id AND r.kind = 'sales')), 0),
      coalesce(sum((SELECT count(*) FROM quiz_responses r WHERE r.sale_id = s.id AND r.kind = 'postventa')), 0)
    FROM k
    LEFT JOIN sales s ON s.dealer_id = k.dealer_id AND s.manufacturer_id = k.manufacturer_id
      AND s.sale_date >= k.month AND s.sale_date < (k.month + interval '1 month')::date
    GROUP BY k.dealer_id, k.manufacturer_id, k.month
    ON CONFLICT (month, dealer_id, manufacturer_id) DO UPDATE SET sales = excluded.sales, invited = excluded.invited,
      answered = excluded.answered, invalid_contacts = excluded.invalid_contacts,
      sales_responses = excluded.sales_responses, postventa_responses = excluded.postventa_responses;
  WITH k AS (SELECT DISTINCT d AS dealer_id, m AS manufacturer_id, mo AS month FROM unnest(k_dealer, k_brand, k_month) AS u(d, m, mo)
    WHERE d IS NOT NULL AND m IS NOT NULL AND mo IS NOT NULL)
  DELETE FROM survey_sale_months t USING k
    WHERE t.month = k.month AND t.dealer_id = k.dealer_id AND t.manufacturer_id = k.manufacturer_id AND t.sales = 0;
END $$;
--> statement-breakpoint
-- The months of the sales written (before and after an edit of their dealer, brand, date or email).
CREATE FUNCTION "survey_sale_months_of_sales"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM survey_sale_months_refresh(array_agg(dealer_id), array_agg(manufacturer_id), array_agg(date_trunc('month', sale_date)::date))
      FROM new_rows;
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM survey_sale_months_refresh(array_agg(dealer_id), array_agg(manufacturer_id), array_agg(date_trunc('month', sale_date)::date))
      FROM old_rows;
  ELSE
    PERFORM survey_sale_months_refresh(array_agg(k.d), array_agg(k.m), array_agg(k.mo)) FROM (
      SELECT o.dealer_id, o.manufacturer_id, date_trunc('month', o.sale_date)::date, n.dealer_id, n.manufacturer_id, date_trunc('month', n.sale_date)::date
        FROM old_rows o JOIN new_rows n ON n.id = o.id
        WHERE (o.dealer_id, o.manufacturer_id, o.sale_date, o.email) IS DISTINCT FROM (n.dealer_id, n.manufacturer_id, n.sale_date, n.email)
    ) x(d1, m1, mo1, d2, m2, mo2), LATERAL (VALUES (x.d1, x.m1, x.mo1), (x.d2, x.m2, x.mo2)) k(d, m, mo);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "sales_survey_months_ins" AFTER INSERT ON "sales" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "survey_sale_months_of_sales"();
--> statement-breakpoint
CREATE TRIGGER "sales_survey_months_upd" AFTER UPDATE ON "sales" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "survey_sale_months_of_sales"();
--> statement-breakpoint
CREATE TRIGGER "sales_survey_months_del" AFTER DELETE ON "sales" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "survey_sale_months_of_sales"();
--> statement-breakpoint
-- The months of the sales whose invitations or responses were written (a sale deleted with them
-- is refreshed by the sales trigger).
CREATE FUNCTION "survey_sale_months_of_survey"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM survey_sale_months_refresh(array_agg(s.dealer_id), array_agg(s.manufacturer_id), array_agg(date_trunc('month', s.sale_date)::date))
      FROM sales s WHERE s.id IN (SELECT sale_id FROM new_rows);
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM survey_sale_months_refresh(array_agg(s.dealer_id), array_agg(s.manufacturer_id), array_agg(date_trunc('month', s.sale_date)::date))
      FROM sales s WHERE s.id IN (SELECT sale_id FROM old_rows);
  ELSIF TG_TABLE_NAME = 'quiz_invitations' THEN
    PERFORM survey_sale_months_refresh(array_agg(s.dealer_id), array_agg(s.manufacturer_id), array_agg(date_trunc('month', s.sale_date)::date))
      FROM sales s WHERE s.id IN (
        SELECT unnest(ARRAY[o.sale_id, n.sale_id]) FROM old_rows o JOIN new_rows n ON n.id = o.id
        WHERE (o.sale_id, o.quiz_id, o.email_status) IS DISTINCT FROM (n.sale_id, n.quiz_id, n.email_status));
  ELSE
    PERFORM survey_sale_months_refresh(array_agg(s.dealer_id), array_agg(s.manufacturer_id), array_agg(date_trunc('month', s.sale_date)::date))
      FROM sales s WHERE s.id IN (
        SELECT unnest(ARRAY[o.sale_id, n.sale_id]) FROM old_rows o JOIN new_rows n ON n.id = o.id
        WHERE (o.sale_id, o.kind) IS DISTINCT FROM (n.sale_id, n.kind));
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "quiz_invitations_survey_months_ins" AFTER INSERT ON "quiz_invitations" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "survey_sale_months_of_survey"();
--> statement-breakpoint
CREATE TRIGGER "quiz_invitations_survey_months_upd" AFTER UPDATE ON "quiz_invitations" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "survey_sale_months_of_survey"();
--> statement-breakpoint
CREATE TRIGGER "quiz_invitations_survey_months_del" AFTER DELETE ON "quiz_invitations" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "survey_sale_months_of_survey"();
--> statement-breakpoint
CREATE TRIGGER "quiz_responses_survey_months_ins" AFTER INSERT ON "quiz_responses" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "survey_sale_months_of_survey"();
--> statement-breakpoint
CREATE TRIGGER "quiz_responses_survey_months_upd" AFTER UPDATE ON "quiz_responses" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "survey_sale_months_of_survey"();
--> statement-breakpoint
CREATE TRIGGER "quiz_responses_survey_months_del" AFTER DELETE ON "quiz_responses" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "survey_sale_months_of_survey"();
--> statement-breakpoint
-- A questionnaire's kind changed: whether its invitations count as 'invited' changes (its
-- responses follow through their copies, migration 0018).
CREATE FUNCTION "survey_sale_months_of_quizzes"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM survey_sale_months_refresh(array_agg(s.dealer_id), array_agg(s.manufacturer_id), array_agg(date_trunc('month', s.sale_date)::date))
    FROM sales s WHERE s.id IN (SELECT i.sale_id FROM quiz_invitations i WHERE i.quiz_id IN (
      SELECT n.id FROM old_rows o JOIN new_rows n ON n.id = o.id WHERE o.kind IS DISTINCT FROM n.kind));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "quizzes_survey_months_upd" AFTER UPDATE ON "quizzes" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "survey_sale_months_of_quizzes"();
--> statement-breakpoint
-- survey_answer_months: the answers written added (inserted, new values) and taken away (deleted,
-- old values) by key; sums commute, so concurrent writers need no lock of their own.
CREATE FUNCTION "survey_answer_months_ins"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO survey_answer_months AS t
    SELECT d1, d2, d3, d4, d5, d6, sum(answers), sum(rating_answers), sum(top), sum(rating_sum) FROM (
      SELECT coalesce(dealer_id, 0), coalesce(manufacturer_id, 0), coalesce(kind, ''), date_trunc('month', sale_date)::date, coalesce(question_id, 0), question,
        count(*) AS answers, count(rating) AS rating_answers, count(*) FILTER (WHERE rating = 4) AS top, coalesce(sum(rating), 0) AS rating_sum
      FROM new_rows WHERE sale_date IS NOT NULL GROUP BY 1, 2, 3, 4, 5, 6
    ) d(d1, d2, d3, d4, d5, d6, answers, rating_answers, top, rating_sum)
    GROUP BY 1, 2, 3, 4, 5, 6
    HAVING sum(answers) <> 0 OR sum(rating_answers) <> 0 OR sum(top) <> 0 OR sum(rating_sum) <> 0
    ORDER BY 4, 3, 1, 2, 5, 6
    ON CONFLICT (month, kind, dealer_id, manufacturer_id, question_id, question) DO UPDATE SET
      answers = t.answers + excluded.answers, rating_answers = t.rating_answers + excluded.rating_answers,
      top = t.top + excluded.top, rating_sum = t.rating_sum + excluded.rating_sum;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "survey_answer_months_upd"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO survey_answer_months AS t
    SELECT d1, d2, d3, d4, d5, d6, sum(answers), sum(rating_answers), sum(top), sum(rating_sum) FROM (
      SELECT coalesce(dealer_id, 0), coalesce(manufacturer_id, 0), coalesce(kind, ''), date_trunc('month', sale_date)::date, coalesce(question_id, 0), question,
        count(*) AS answers, count(rating) AS rating_answers, count(*) FILTER (WHERE rating = 4) AS top, coalesce(sum(rating), 0) AS rating_sum
      FROM new_rows WHERE sale_date IS NOT NULL GROUP BY 1, 2, 3, 4, 5, 6
      UNION ALL SELECT coalesce(dealer_id, 0), coalesce(manufacturer_id, 0), coalesce(kind, ''), date_trunc('month', sale_date)::date, coalesce(question_id, 0), question,
        -count(*) AS answers, -count(rating) AS rating_answers, -count(*) FILTER (WHERE rating = 4) AS top, -coalesce(sum(rating), 0) AS rating_sum
      FROM old_rows WHERE sale_date IS NOT NULL GROUP BY 1, 2, 3, 4, 5, 6
    ) d(d1, d2, d3, d4, d5, d6, answers, rating_answers, top, rating_sum)
    GROUP BY 1, 2, 3, 4, 5, 6
    HAVING sum(answers) <> 0 OR sum(rating_answers) <> 0 OR sum(top) <> 0 OR sum(rating_sum) <> 0
    ORDER BY 4, 3, 1, 2, 5, 6
    ON CONFLICT (month, kind, dealer_id, manufacturer_id, question_id, question) DO UPDATE SET
      answers = t.answers + excluded.answers, rating_answers = t.rating_answers + excluded.rating_answers,
      top = t.top + excluded.top, rating_sum = t.rating_sum + excluded.rating_sum;
  DELETE FROM survey_answer_months t WHERE t.answers = 0
    AND (t.month, t.kind, t.dealer_id, t.manufacturer_id, t.question_id, t.question) IN (
      SELECT date_trunc('month', sale_date)::date, coalesce(kind, ''), coalesce(dealer_id, 0), coalesce(manufacturer_id, 0), coalesce(question_id, 0), question
      FROM old_rows WHERE sale_date IS NOT NULL);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "survey_answer_months_del"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO survey_answer_months AS t
    SELECT d1, d2, d3, d4, d5, d6, sum(answers), sum(rating_answers), sum(top), sum(rating_sum) FROM (
      SELECT coalesce(dealer_id, 0), coalesce(manufacturer_id, 0), coalesce(kind, ''), date_trunc('month', sale_date)::date, coalesce(question_id, 0), question,
        -count(*) AS answers, -count(rating) AS rating_answers, -count(*) FILTER (WHERE rating = 4) AS top, -coalesce(sum(rating), 0) AS rating_sum
      FROM old_rows WHERE sale_date IS NOT NULL GROUP BY 1, 2, 3, 4, 5, 6
    ) d(d1, d2, d3, d4, d5, d6, answers, rating_answers, top, rating_sum)
    GROUP BY 1, 2, 3, 4, 5, 6
    HAVING sum(answers) <> 0 OR sum(rating_answers) <> 0 OR sum(top) <> 0 OR sum(rating_sum) <> 0
    ORDER BY 4, 3, 1, 2, 5, 6
    ON CONFLICT (month, kind, dealer_id, manufacturer_id, question_id, question) DO UPDATE SET
      answers = t.answers + excluded.answers, rating_answers = t.rating_answers + excluded.rating_answers,
      top = t.top + excluded.top, rating_sum = t.rating_sum + excluded.rating_sum;
  DELETE FROM survey_answer_months t WHERE t.answers = 0
    AND (t.month, t.kind, t.dealer_id, t.manufacturer_id, t.question_id, t.question) IN (
      SELECT date_trunc('month', sale_date)::date, coalesce(kind, ''), coalesce(dealer_id, 0), coalesce(manufacturer_id, 0), coalesce(question_id, 0), question
      FROM old_rows WHERE sale_date IS NOT NULL);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "quiz_answers_survey_months_ins" AFTER INSERT ON "quiz_answers" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "survey_answer_months_ins"();
--> statement-breakpoint
CREATE TRIGGER "quiz_answers_survey_months_upd" AFTER UPDATE ON "quiz_answers" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "survey_answer_months_upd"();
--> statement-breakpoint
CREATE TRIGGER "quiz_answers_survey_months_del" AFTER DELETE ON "quiz_answers" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "survey_answer_months_del"();
--> statement-breakpoint
-- The summaries of the rows already there.
INSERT INTO "survey_answer_months"
  SELECT coalesce(dealer_id, 0), coalesce(manufacturer_id, 0), coalesce(kind, ''), date_trunc('month', sale_date)::date,
    coalesce(question_id, 0), question, count(*), count(rating), count(*) FILTER (WHERE rating = 4), coalesce(sum(rating), 0)
  FROM quiz_answers WHERE sale_date IS NOT NULL GROUP BY 1, 2, 3, 4, 5, 6;
--> statement-breakpoint
SELECT survey_sale_months_refresh(array_agg(dealer_id), array_agg(manufacturer_id), array_agg(month))
  FROM (SELECT DISTINCT dealer_id, manufacturer_id, date_trunc('month', sale_date)::date AS month FROM sales) k;
