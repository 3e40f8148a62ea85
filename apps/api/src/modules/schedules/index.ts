// Scheduled reports by mail (issue 29, item 5): the monthly Resumen Comparativo to a dealer's
// contacts when its month is confirmed (figures' confirm runs it, in its transaction), and the
// weekly dashboard summary to the manufacturer's managers, run by a pg-boss schedule (core/jobs
// defineRecurring). Both through the outbox (modules/mail), both once per period (the runs' key).
import { defineRecurring } from '../../core/jobs';
import { defineModule } from '../../core/registry';
import { onMonthConfirmed } from '../figures';
import { scheduleActions } from './schedules.actions';
import { queueResumenOnConfirm, runDueSchedules } from './schedules.service';

// A dealer's confirmed month queues its Resumen Comparativo, in the confirmation's transaction.
onMonthConfirmed(queueResumenOnConfirm);

/** Every minute pg-boss makes one job (whatever the servers); it sends only when the week is due. */
defineRecurring({ name: 'mail-schedules', cron: '* * * * *', run: runDueSchedules });

export const schedulesModule = defineModule({ name: 'schedules', actions: scheduleActions });
