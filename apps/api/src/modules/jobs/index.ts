// Background jobs: their status and files (the queue itself: core/jobs.ts).
import { defineModule } from '../../core/registry';
import { jobsActions } from './jobs.actions';

export const jobsModule = defineModule({ name: 'jobs', resources: [], actions: jobsActions });
