// "Import/export in progress", the same on every import screen: a background job (a big file,
// answered 202 by the server) followed until it ends, with a progress bar, what it is doing and
// how many rows; then `onEnd` gets the job (done: its result; failed: its Spanish error).
import { type BackgroundJob, JOB_TEXTS, shellCalls } from '@app/contracts';
import { Alert, Box, LinearProgress, Typography } from '@mui/material';
import { useEffect, useRef, useState } from 'react';
import { call } from '../lib/http';

/** How often the job is asked for. */
const POLL_MS = 1000;

const count = (n: number) => n.toLocaleString('es-PE');

export function JobProgress<R>({
  job: initial,
  onEnd,
}: {
  job: BackgroundJob<R>;
  onEnd: (job: BackgroundJob<R>) => void;
}) {
  const [job, setJob] = useState(initial);
  const ended = useRef(false);
  const end = useRef(onEnd);
  end.current = onEnd;
  useEffect(() => {
    let alive = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = async () => {
      try {
        const next = (await call(
          shellCalls.job,
          { params: { id: initial.id } },
          { silent: true },
        )) as BackgroundJob<R>;
        if (!alive) return;
        setJob(next);
        if (next.status === 'done' || next.status === 'failed') {
          if (!ended.current) {
            ended.current = true;
            end.current(next);
          }
          return;
        }
      } catch {
        // A lost answer: asked again at the next tick.
      }
      if (alive) timer = setTimeout(() => void tick(), POLL_MS);
    };
    if (initial.status === 'done' || initial.status === 'failed') {
      ended.current = true;
      end.current(initial);
    } else timer = setTimeout(() => void tick(), POLL_MS);
    return () => {
      alive = false;
      if (timer) clearTimeout(timer);
    };
  }, [initial]);

  const running = job.status === 'queued' || job.status === 'running';
  const determinate = job.status === 'done' || (job.status === 'running' && !!job.total);
  const step = job.status === 'queued' ? JOB_TEXTS.queued : (job.step ?? 'Procesando');
  return (
    <Box role="status" aria-live="polite" sx={{ my: 2 }} data-testid="job-progress">
      <Typography variant="subtitle2">{job.title}</Typography>
      {running && (
        <>
          <LinearProgress
            variant={determinate ? 'determinate' : 'indeterminate'}
            value={job.percent}
            aria-label={`Avance de ${job.title}`}
            sx={{ my: 1, height: 8, borderRadius: 1 }}
          />
          <Typography variant="body2">
            {step}
            {job.total
              ? ` · ${count(Math.min(job.done, job.total))} de ${count(job.total)} filas (${job.percent} %)`
              : ''}
          </Typography>
          <Typography variant="caption" color="text.secondary">
            {JOB_TEXTS.leave}
          </Typography>
        </>
      )}
      {job.status === 'failed' && (
        <Alert severity="error" sx={{ mt: 1, whiteSpace: 'pre-line' }}>
          {job.error ?? JOB_TEXTS.failed}
        </Alert>
      )}
    </Box>
  );
}
