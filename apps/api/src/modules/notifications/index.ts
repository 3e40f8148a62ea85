// The notifications centre: the user's notifications (the bell and /main/order) and the daily
// sweep of the date-driven ones, tried at start and every hour (the first server to claim Lima's
// day sweeps it; the others find it claimed). Other modules write theirs with `notify` in the
// transaction of their event; a job that ends is told with `notifyJobFinished` (core/jobs' onJobFinished).
import type { FastifyInstance } from 'fastify';
import { onJobFinished } from '../../core/jobs';
import { defineModule } from '../../core/registry';
import { notificationActions } from './notifications.actions';
import { notifyJobFinished, sweepNotifications } from './notifications.service';

onJobFinished(notifyJobFinished);

export { notify, notifyJobFinished } from './notifications.service';

const timers = new WeakMap<FastifyInstance, NodeJS.Timeout>();
const SWEEP_EVERY_MS = 3_600_000;

async function startSweep(app: FastifyInstance): Promise<void> {
  const run = () =>
    sweepNotifications(app.ctx.handle.db).catch((err) =>
      app.log.warn({ err }, 'no se pudo revisar las notificaciones del día'),
    );
  const timer = setInterval(run, SWEEP_EVERY_MS);
  timer.unref();
  timers.set(app, timer);
  void run();
}

export const notificationsModule = defineModule({
  name: 'notifications',
  actions: notificationActions,
  onReady: startSweep,
  onClose: async (app) => clearInterval(timers.get(app)),
});
