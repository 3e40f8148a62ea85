// The background export shown by the export dialog: a small store the HTTP client's 202 hook
// fills (main.tsx, in the first bundle) and the dialog reads (ExportJobDialog, loaded with the
// shell), so the login route does not carry the dialog, its progress bar and their MUI parts.
import type { BackgroundJob } from '@app/contracts';

let current: BackgroundJob | null = null;
const listeners = new Set<() => void>();

export const subscribeExportJob = (l: () => void) => {
  listeners.add(l);
  return () => {
    listeners.delete(l);
  };
};

export const currentExportJob = (): BackgroundJob | null => current;

export function setExportJob(job: BackgroundJob | null): void {
  current = job;
  for (const l of listeners) l();
}

/** Opens the dialog on `job` (the export call's 202 answer). */
export const showExportJob = (job: BackgroundJob): void => setExportJob(job);
