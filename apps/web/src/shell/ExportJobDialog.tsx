// A big export runs as a background job (the server answers 202): this dialog follows it with the
// shared progress bar and, when the file is ready, offers "Descargar". It opens from the export
// button (downloadFile hands the job here) or from a notification's link (?trabajo=<id>), so a
// user who closed it finds the file again from the bell.
import { type BackgroundJob, EXPORT_JOB_PARAM, JOB_TEXTS, shellCalls } from '@app/contracts';
import FileDownload from '@mui/icons-material/FileDownload';
import { Alert, Button, Dialog, DialogActions, DialogContent, DialogTitle, Typography } from '@mui/material';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { useSearchParams } from 'react-router';
import { call, download } from '../lib/http';
import { JobProgress } from '../resources/JobProgress';
import { currentExportJob, setExportJob, subscribeExportJob } from './exportJob';

export function ExportJobDialog() {
  const job = useSyncExternalStore(subscribeExportJob, currentExportJob);
  const [params, setParams] = useSearchParams();
  const fromLink = params.get(EXPORT_JOB_PARAM);
  const [ended, setEnded] = useState<BackgroundJob | null>(null);

  // A notification's link: the job by its id (only its owner gets it; otherwise nothing opens).
  useEffect(() => {
    if (!fromLink || currentExportJob()?.id === fromLink) return;
    let alive = true;
    call(shellCalls.job, { params: { id: fromLink } }, { silent: true })
      .then((j) => alive && setExportJob(j as BackgroundJob))
      .catch(() => {});
    return () => {
      alive = false;
    };
  }, [fromLink]);

  const close = () => {
    setExportJob(null);
    if (fromLink)
      setParams(
        (p) => {
          p.delete(EXPORT_JOB_PARAM);
          return p;
        },
        { replace: true },
      );
  };
  // The end of the job shown now (a job opened after another starts without one).
  const done = ended?.status === 'done' && ended.id === job?.id ? ended : null;
  return (
    <Dialog open={!!job} onClose={close} maxWidth="sm" fullWidth aria-labelledby="export-job-title">
      <DialogTitle id="export-job-title">{job?.title ?? 'Exportación'}</DialogTitle>
      <DialogContent dividers>
        {job && (
          <>
            {!done && <Typography variant="body2">{JOB_TEXTS.exportBig}</Typography>}
            {!done && <JobProgress key={job.id} job={job} onEnd={setEnded} />}
            {done && (
              <Alert severity="success">
                {JOB_TEXTS.exportReady} {done.file_name}
              </Alert>
            )}
          </>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={close}>Cerrar</Button>
        <Button
          variant="contained"
          startIcon={<FileDownload />}
          disabled={!done}
          onClick={() =>
            done &&
            void download(shellCalls.jobFile, done.file_name ?? 'exportacion.xlsx', {
              params: { id: done.id },
            })
          }
        >
          {JOB_TEXTS.download}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
