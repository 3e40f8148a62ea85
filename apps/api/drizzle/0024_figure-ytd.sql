CREATE TABLE "figure_ytd" (
	"year" smallint NOT NULL,
	"month" smallint NOT NULL,
	"concept_id" integer NOT NULL,
	"dealer_id" integer NOT NULL,
	"fig_n" integer NOT NULL,
	"fig_sum" numeric,
	"fig_last" numeric,
	"fig_month" numeric,
	"fee_n" integer NOT NULL,
	"fee_sum" numeric,
	"fee_last" numeric,
	"fee_month" numeric,
	"paired_n" integer NOT NULL,
	"paired_fig_sum" numeric,
	"paired_fig_last" numeric,
	"paired_fee_sum" numeric,
	"paired_fee_last" numeric,
	"paired_months" integer,
	CONSTRAINT "figure_ytd_year_month_concept_id_dealer_id_pk" PRIMARY KEY("year","month","concept_id","dealer_id")
);
--> statement-breakpoint
-- Year-to-date summaries of the figures and fees (issue 28), kept by the database in the same
-- statement as every write to the rows they sum (grids, concept saves, imports, CASIS, the demo
-- seed, deletes), so they never disagree with a recomputation from the raw rows.
--
-- figure_ytd_refresh: the 12 cut months of the given (dealer, concept, year) keys recomputed from
-- the raw rows. Each key's rows are locked first (created if missing), then recomputed: a
-- transaction that changed the same key waits for the other's commit and recomputes with its rows
-- (each statement of the function reads a new snapshot), so two concurrent writers never keep a
-- stale sum. Cut months without a figure or a fee are not kept.
CREATE FUNCTION "figure_ytd_refresh"(k_dealer integer[], k_concept integer[], k_year integer[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF coalesce(cardinality(k_dealer), 0) = 0 THEN RETURN; END IF;
  INSERT INTO figure_ytd AS t (year, month, concept_id, dealer_id, fig_n, fee_n, paired_n)
    SELECT k.y, u.m, k.c, k.d, 0, 0, 0
    FROM (SELECT DISTINCT d, c, y FROM unnest(k_dealer, k_concept, k_year) AS x(d, c, y)
      WHERE d IS NOT NULL AND c IS NOT NULL AND y IS NOT NULL) k
    CROSS JOIN generate_series(1, 12) AS u(m)
    ORDER BY 1, 2, 3, 4
    ON CONFLICT DO NOTHING;
  PERFORM 1 FROM figure_ytd t JOIN (SELECT DISTINCT d, c, y FROM unnest(k_dealer, k_concept, k_year) AS x(d, c, y)) k
    ON t.year = k.y AND t.concept_id = k.c AND t.dealer_id = k.d
    ORDER BY t.year, t.month, t.concept_id, t.dealer_id FOR UPDATE OF t;
  WITH k AS (SELECT DISTINCT d, c, y FROM unnest(k_dealer, k_concept, k_year) AS x(d, c, y)
    WHERE d IS NOT NULL AND c IS NOT NULL AND y IS NOT NULL),
  cells AS (
    SELECT k.d, k.c, k.y, u.m AS month, fg.value AS fig, fe.value AS fee,
      (fg.value IS NOT NULL AND fe.value IS NOT NULL) AS paired
    FROM k CROSS JOIN generate_series(1, 12) AS u(m)
    LEFT JOIN figures fg ON fg.dealer_id = k.d AND fg.year = k.y AND fg.month = u.m AND fg.concept_id = k.c
    LEFT JOIN fees fe ON fe.dealer_id = k.d AND fe.year = k.y AND fe.month = u.m AND fe.concept_id = k.c
    WHERE fg.value IS NOT NULL OR fe.value IS NOT NULL
  )
  INSERT INTO figure_ytd AS t
    SELECT k.y, u.m, k.c, k.d,
      count(c.fig), sum(c.fig), (max(array[c.month::numeric, c.fig]) FILTER (WHERE c.fig IS NOT NULL))[2],
      max(c.fig) FILTER (WHERE c.month = u.m),
      count(c.fee), sum(c.fee), (max(array[c.month::numeric, c.fee]) FILTER (WHERE c.fee IS NOT NULL))[2],
      max(c.fee) FILTER (WHERE c.month = u.m),
      count(*) FILTER (WHERE c.paired), sum(c.fig) FILTER (WHERE c.paired),
      (max(array[c.month::numeric, c.fig]) FILTER (WHERE c.paired))[2],
      sum(c.fee) FILTER (WHERE c.paired), (max(array[c.month::numeric, c.fee]) FILTER (WHERE c.paired))[2],
      bit_or(1 << c.month) FILTER (WHERE c.paired)
    FROM k CROSS JOIN generate_series(1, 12) AS u(m)
    LEFT JOIN cells c ON c.d = k.d AND c.c = k.c AND c.y = k.y AND c.month <= u.m
    GROUP BY k.y, u.m, k.c, k.d
    ON CONFLICT (year, month, concept_id, dealer_id) DO UPDATE SET
      fig_n = excluded.fig_n, fig_sum = excluded.fig_sum, fig_last = excluded.fig_last, fig_month = excluded.fig_month,
      fee_n = excluded.fee_n, fee_sum = excluded.fee_sum, fee_last = excluded.fee_last, fee_month = excluded.fee_month,
      paired_n = excluded.paired_n, paired_fig_sum = excluded.paired_fig_sum, paired_fig_last = excluded.paired_fig_last,
      paired_fee_sum = excluded.paired_fee_sum, paired_fee_last = excluded.paired_fee_last,
      paired_months = excluded.paired_months;
  DELETE FROM figure_ytd t USING (SELECT DISTINCT d, c, y FROM unnest(k_dealer, k_concept, k_year) AS x(d, c, y)) k
    WHERE t.year = k.y AND t.concept_id = k.c AND t.dealer_id = k.d AND t.fig_n = 0 AND t.fee_n = 0;
END $$;
--> statement-breakpoint
-- The keys of the figures or fees written (before and after an edit of their dealer, concept,
-- year, month or value).
CREATE FUNCTION "figure_ytd_of_cells"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM figure_ytd_refresh(array_agg(dealer_id), array_agg(concept_id), array_agg(year::int)) FROM new_rows;
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM figure_ytd_refresh(array_agg(dealer_id), array_agg(concept_id), array_agg(year::int)) FROM old_rows;
  ELSE
    PERFORM figure_ytd_refresh(array_agg(k.d), array_agg(k.c), array_agg(k.y)) FROM (
      SELECT o.dealer_id, o.concept_id, o.year::int, n.dealer_id, n.concept_id, n.year::int
        FROM old_rows o JOIN new_rows n ON n.id = o.id
        WHERE (o.dealer_id, o.concept_id, o.year, o.month, o.value) IS DISTINCT FROM (n.dealer_id, n.concept_id, n.year, n.month, n.value)
    ) x(d1, c1, y1, d2, c2, y2), LATERAL (VALUES (x.d1, x.c1, x.y1), (x.d2, x.c2, x.y2)) k(d, c, y);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "figures_ytd_ins" AFTER INSERT ON "figures" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "figure_ytd_of_cells"();
--> statement-breakpoint
CREATE TRIGGER "figures_ytd_upd" AFTER UPDATE ON "figures" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "figure_ytd_of_cells"();
--> statement-breakpoint
CREATE TRIGGER "figures_ytd_del" AFTER DELETE ON "figures" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "figure_ytd_of_cells"();
--> statement-breakpoint
CREATE TRIGGER "fees_ytd_ins" AFTER INSERT ON "fees" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "figure_ytd_of_cells"();
--> statement-breakpoint
CREATE TRIGGER "fees_ytd_upd" AFTER UPDATE ON "fees" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "figure_ytd_of_cells"();
--> statement-breakpoint
CREATE TRIGGER "fees_ytd_del" AFTER DELETE ON "fees" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "figure_ytd_of_cells"();
--> statement-breakpoint
-- The summaries of the rows already there, in one pass (the same sums as figure_ytd_refresh).
WITH cells AS (
  SELECT coalesce(fg.dealer_id, fe.dealer_id) AS d, coalesce(fg.concept_id, fe.concept_id) AS c,
    coalesce(fg.year, fe.year)::int AS y, coalesce(fg.month, fe.month)::int AS month, fg.value AS fig, fe.value AS fee,
    (fg.value IS NOT NULL AND fe.value IS NOT NULL) AS paired
  FROM figures fg FULL JOIN fees fe
    ON fe.dealer_id = fg.dealer_id AND fe.year = fg.year AND fe.month = fg.month AND fe.concept_id = fg.concept_id
)
INSERT INTO figure_ytd
  SELECT c.y, u.m, c.c, c.d,
    count(c.fig), sum(c.fig), (max(array[c.month::numeric, c.fig]) FILTER (WHERE c.fig IS NOT NULL))[2],
    max(c.fig) FILTER (WHERE c.month = u.m),
    count(c.fee), sum(c.fee), (max(array[c.month::numeric, c.fee]) FILTER (WHERE c.fee IS NOT NULL))[2],
    max(c.fee) FILTER (WHERE c.month = u.m),
    count(*) FILTER (WHERE c.paired), sum(c.fig) FILTER (WHERE c.paired),
    (max(array[c.month::numeric, c.fig]) FILTER (WHERE c.paired))[2],
    sum(c.fee) FILTER (WHERE c.paired), (max(array[c.month::numeric, c.fee]) FILTER (WHERE c.paired))[2],
    bit_or(1 << c.month) FILTER (WHERE c.paired)
  FROM cells c JOIN generate_series(1, 12) AS u(m) ON c.month <= u.m
  WHERE c.month BETWEEN 1 AND 12
  GROUP BY c.y, u.m, c.c, c.d
  HAVING count(c.fig) > 0 OR count(c.fee) > 0
  ORDER BY 1, 2, 3, 4;
