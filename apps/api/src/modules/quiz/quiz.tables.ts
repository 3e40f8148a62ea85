// Satisfaction surveys: questionnaires and questions, one invitation (token) per sale and
// questionnaire, the single response of an invitation with its answers, and low-score alerts.

import { DEFAULT_RATING_LABELS } from '@app/contracts';
import {
  boolean,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import { active, timestamps } from '../../db/columns';
import { dealers, manufacturers, users } from '../../db/schema';
import { sales } from '../sales/sales.tables';

export const quizzes = pgTable('quizzes', {
  id: serial('id').primaryKey(),
  title: varchar('title', { length: 200 }).notNull(),
  description: text('description'),
  /** null = every brand. */
  manufacturer_id: integer('manufacturer_id').references(() => manufacturers.id),
  /** sales | postventa */
  kind: varchar('kind', { length: 20 }).notNull().default('sales'),
  /** The names of ratings 1..4, shown by the public survey and the back office alike. */
  rating_labels: jsonb('rating_labels')
    .$type<string[]>()
    .notNull()
    .default([...DEFAULT_RATING_LABELS]),
  ...active,
  ...timestamps,
});

export const quizQuestions = pgTable(
  'quiz_questions',
  {
    id: serial('id').primaryKey(),
    quiz_id: integer('quiz_id')
      .notNull()
      .references(() => quizzes.id, { onDelete: 'cascade' }),
    order: integer('order').notNull().default(0),
    text: varchar('text', { length: 500 }).notNull(),
    /** rating4 | yesno | choice | text */
    type: varchar('type', { length: 10 }).notNull(),
    options: jsonb('options').$type<string[] | null>(),
    required: boolean('required').notNull().default(true),
    ...timestamps,
  },
  (t) => [index('quiz_questions_quiz_idx').on(t.quiz_id, t.order)],
);

export const quizInvitations = pgTable(
  'quiz_invitations',
  {
    id: serial('id').primaryKey(),
    sale_id: integer('sale_id')
      .notNull()
      .references(() => sales.id, { onDelete: 'cascade' }),
    quiz_id: integer('quiz_id')
      .notNull()
      .references(() => quizzes.id),
    /** sha256 (hex) of the 32-byte token mailed to the buyer; the token itself is never stored. */
    token_hash: varchar('token_hash', { length: 64 }).notNull(),
    email: varchar('email', { length: 150 }).notNull(),
    expires_at: timestamp('expires_at', { withTimezone: true }).notNull(),
    sent_at: timestamp('sent_at', { withTimezone: true }),
    reminded_at: timestamp('reminded_at', { withTimezone: true }),
    reminder_count: integer('reminder_count').notNull().default(0),
    answered_at: timestamp('answered_at', { withTimezone: true }),
    /** sent | queued (outbox, no SMTP) | failed */
    email_status: varchar('email_status', { length: 20 }).notNull().default('queued'),
    mail_outbox_id: integer('mail_outbox_id'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('quiz_invitations_token_uq').on(t.token_hash),
    uniqueIndex('quiz_invitations_sale_quiz_uq').on(t.sale_id, t.quiz_id),
    index('quiz_invitations_quiz_idx').on(t.quiz_id),
  ],
);

export const quizResponses = pgTable(
  'quiz_responses',
  {
    id: serial('id').primaryKey(),
    invitation_id: integer('invitation_id')
      .notNull()
      .references(() => quizInvitations.id, { onDelete: 'cascade' }),
    sale_id: integer('sale_id')
      .notNull()
      .references(() => sales.id, { onDelete: 'cascade' }),
    quiz_id: integer('quiz_id')
      .notNull()
      .references(() => quizzes.id),
    dealer_id: integer('dealer_id')
      .notNull()
      .references(() => dealers.id),
    answered_at: timestamp('answered_at', { withTimezone: true }).notNull().defaultNow(),
    // Copies of the sale's date and brand and the questionnaire's kind, for the statistics of a
    // period (which read only its own rows). Kept by triggers on every write (migration 0018):
    // set on insert, followed when the sale or the questionnaire changes. Never written by code.
    kind: varchar('kind', { length: 20 }),
    sale_date: date('sale_date', { mode: 'string' }),
    manufacturer_id: integer('manufacturer_id'),
  },
  (t) => [
    // One response per invitation: the second of two concurrent submits fails here at the latest.
    uniqueIndex('quiz_responses_invitation_uq').on(t.invitation_id),
    index('quiz_responses_sale_idx').on(t.sale_id),
    index('quiz_responses_dealer_idx').on(t.dealer_id),
    index('quiz_responses_stats_idx').on(t.sale_date, t.sale_id, t.kind),
  ],
);

export const quizAnswers = pgTable(
  'quiz_answers',
  {
    id: serial('id').primaryKey(),
    response_id: integer('response_id')
      .notNull()
      .references(() => quizResponses.id, { onDelete: 'cascade' }),
    question_id: integer('question_id').references(() => quizQuestions.id, { onDelete: 'set null' }),
    /** The question as the buyer saw it: answers stay readable if the questionnaire changes. */
    question: varchar('question', { length: 500 }).notNull(),
    question_type: varchar('question_type', { length: 10 }).notNull(),
    value: text('value'),
    /** 1..4 for rating answers, for statistics. */
    rating: integer('rating'),
    // Copies of the response's (its sale's) dealer, date and brand and the questionnaire's kind,
    // kept by triggers like quiz_responses' (migration 0018). Never written by code.
    dealer_id: integer('dealer_id'),
    kind: varchar('kind', { length: 20 }),
    sale_date: date('sale_date', { mode: 'string' }),
    manufacturer_id: integer('manufacturer_id'),
  },
  (t) => [
    index('quiz_answers_response_idx').on(t.response_id),
    index('quiz_answers_stats_idx').on(t.sale_date, t.kind, t.dealer_id, t.manufacturer_id, t.rating),
  ],
);

export const quizAlerts = pgTable(
  'quiz_alerts',
  {
    id: serial('id').primaryKey(),
    response_id: integer('response_id')
      .notNull()
      .references(() => quizResponses.id, { onDelete: 'cascade' }),
    sale_id: integer('sale_id')
      .notNull()
      .references(() => sales.id, { onDelete: 'cascade' }),
    dealer_id: integer('dealer_id')
      .notNull()
      .references(() => dealers.id),
    /** The questions answered at the lowest level. */
    detail: text('detail'),
    opened_at: timestamp('opened_at', { withTimezone: true }).notNull().defaultNow(),
    reply: text('reply'),
    replied_at: timestamp('replied_at', { withTimezone: true }),
    replied_by: integer('replied_by').references(() => users.id),
    closed_at: timestamp('closed_at', { withTimezone: true }),
    closed_by: integer('closed_by').references(() => users.id),
  },
  (t) => [
    uniqueIndex('quiz_alerts_response_uq').on(t.response_id),
    index('quiz_alerts_dealer_idx').on(t.dealer_id, t.closed_at),
  ],
);

// Monthly summaries of the survey facts (issue 28), read by the statistics for whole months.
// Kept by triggers (migration 0023) in the same transaction as every write to the rows they sum
// (sales, quiz_invitations, quiz_responses, quizzes' kind, quiz_answers), so a summary never
// disagrees with a recomputation from the raw rows. Never written by code.

/** Per dealer, brand and month of the sale date: the sales and their survey state. */
export const surveySaleMonths = pgTable(
  'survey_sale_months',
  {
    dealer_id: integer('dealer_id').notNull(),
    manufacturer_id: integer('manufacturer_id').notNull(),
    /** The first day of the month of the sales' date. */
    month: date('month', { mode: 'string' }).notNull(),
    sales: integer('sales').notNull(),
    /** Sales with an invitation to a sales questionnaire. */
    invited: integer('invited').notNull(),
    /** Sales with a response to a sales questionnaire. */
    answered: integer('answered').notNull(),
    /** Sales without a valid email or with a failed invitation. */
    invalid_contacts: integer('invalid_contacts').notNull(),
    /** Responses of the month's sales, by the questionnaire's kind. */
    sales_responses: integer('sales_responses').notNull(),
    postventa_responses: integer('postventa_responses').notNull(),
  },
  (t) => [primaryKey({ columns: [t.month, t.dealer_id, t.manufacturer_id] })],
);

/**
 * Per dealer, brand, kind, month of the sale date and question: the answers and their ratings
 * (quiz_answers' copies; a missing dealer, brand, kind or question is 0 or '').
 */
export const surveyAnswerMonths = pgTable(
  'survey_answer_months',
  {
    dealer_id: integer('dealer_id').notNull(),
    manufacturer_id: integer('manufacturer_id').notNull(),
    kind: varchar('kind', { length: 20 }).notNull(),
    month: date('month', { mode: 'string' }).notNull(),
    question_id: integer('question_id').notNull(),
    question: varchar('question', { length: 500 }).notNull(),
    answers: integer('answers').notNull(),
    rating_answers: integer('rating_answers').notNull(),
    /** Ratings at the top level (4). */
    top: integer('top').notNull(),
    rating_sum: integer('rating_sum').notNull(),
  },
  (t) => [
    primaryKey({
      columns: [t.month, t.kind, t.dealer_id, t.manufacturer_id, t.question_id, t.question],
    }),
  ],
);
