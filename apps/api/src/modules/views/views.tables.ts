// Saved views of the lists: a name, the list's URL query, its owner and the role it is shared with.
import { index, integer, pgTable, serial, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { timestamps } from '../../db/columns';
import { roles, users } from '../../db/schema';

export const savedViews = pgTable(
  'saved_views',
  {
    id: serial('id').primaryKey(),
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    screen: varchar('screen', { length: 200 }).notNull(),
    name: varchar('name', { length: 80 }).notNull(),
    params: varchar('params', { length: 2000 }).notNull(),
    role_id: integer('role_id').references(() => roles.id, { onDelete: 'cascade' }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('saved_views_owner_name_uq').on(t.user_id, t.screen, t.name),
    index('saved_views_role_idx').on(t.role_id, t.screen),
  ],
);
