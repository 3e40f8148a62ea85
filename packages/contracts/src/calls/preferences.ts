// Settings, the general types' values, the scheduled mailings and the outbox (modules
// preferences, schedules and mail on the server).

import { configurationsSaveSchema } from '../resources/preferences';
import { mailScheduleSaveSchema, mailScheduleViewSchema } from '../schedules';
import { z } from '../zod';
import { defineCall } from './call';
import { startupRoutes } from './startup-routes';

/** The settings a caller may read: {key: value} (secrets never). */
const settings = z.record(z.string(), z.string().nullable());

export const preferenceCalls = {
  /** Without a session: the public settings only. */
  settings: defineCall({ ...startupRoutes.settings, result: settings }),
  saveSettings: defineCall({
    method: 'PUT',
    path: '/api/configurations/save',
    body: configurationsSaveSchema,
    result: settings,
  }),
  /** The active values of every active general type, by the type's code. */
  generalTypeValues: defineCall({
    ...startupRoutes.generalTypeValues,
    result: z.record(
      z.string(),
      z.array(z.object({ id: z.int(), code: z.string().nullable(), name: z.string(), payload: z.unknown() })),
    ),
  }),
  mailSchedules: defineCall({
    method: 'GET',
    path: '/api/mail-schedules',
    result: z.array(mailScheduleViewSchema),
  }),
  saveMailSchedule: defineCall({
    method: 'PUT',
    path: '/api/mail-schedules/:id',
    body: mailScheduleSaveSchema,
    result: mailScheduleViewSchema,
  }),
  /** The outbox's list (a resource of the server only: no screen of its own). */
  outbox: defineCall({ method: 'GET', path: '/api/mail-outbox', anyQuery: true }),
  flushOutbox: defineCall({
    method: 'POST',
    path: '/api/mail-outbox/flush',
    result: z.object({ sent: z.int(), failed: z.int(), pending: z.int() }),
  }),
};
