// A background job (a big import or export) as GET /api/jobs/:id answers it (apps/api core/jobs.ts
// jobView): what the shared progress component of every import screen shows.
export type JobStatus = 'queued' | 'running' | 'done' | 'failed';

export interface BackgroundJob<R = unknown> {
  id: string;
  kind: string;
  /** 'Carga de ventas' */
  title: string;
  status: JobStatus;
  done: number;
  total: number | null;
  /** 0–100 (100 only when done). */
  percent: number;
  /** What it is doing now, in Spanish. */
  step: string | null;
  /** The answer the synchronous call would have given (an import's ImportResult). */
  result: R | null;
  /** The Spanish message of a failed job. */
  error: string | null;
  /** An export's file name (download: GET /api/jobs/:id/file). */
  file_name: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  expires_at: string;
}

/** An answer is a job (202) rather than the call's own result. */
export function isBackgroundJob(value: unknown): value is BackgroundJob {
  return (
    !!value &&
    typeof value === 'object' &&
    typeof (value as BackgroundJob).id === 'string' &&
    typeof (value as BackgroundJob).kind === 'string' &&
    typeof (value as BackgroundJob).status === 'string' &&
    'percent' in (value as object)
  );
}

/** The URL parameter that opens an export job's dialog on any screen (a notification's link). */
export const EXPORT_JOB_PARAM = 'trabajo';

export const JOB_TEXTS = {
  queued: 'En cola: empezará en unos segundos',
  exportBig: 'La exportación tiene muchas filas: se prepara en segundo plano.',
  exportReady: 'El archivo está listo.',
  download: 'Descargar',
  leave: 'Puede cerrar esta ventana: el trabajo sigue en el servidor y se le avisará al terminar.',
  failed: 'El trabajo no terminó',
} as const;
