import './lib/zod-config';
import { CssBaseline, ThemeProvider } from '@mui/material';
import { QueryClientProvider } from '@tanstack/react-query';
import { enqueueSnackbar, SnackbarProvider } from 'notistack';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { routes } from './app/routes';
import { theme } from './app/theme';
import { setHttpHooks } from './lib/http';
import { FORBIDDEN_PATH } from './lib/paths';
import { queryClient } from './lib/queryClient';
import { dropSession, startUp } from './session/session';
import { showExportJob } from './shell/exportJob';

const router = createBrowserRouter(routes);

setHttpHooks({
  toast: (text) => enqueueSnackbar(text, { variant: 'error', style: { whiteSpace: 'pre-line' } }),
  exportJob: showExportJob,
  unauthorized: () => {
    dropSession();
    queryClient.clear();
    void router.navigate('/');
  },
  forbidden: () => void router.navigate(FORBIDDEN_PATH),
});

void startUp();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <SnackbarProvider maxSnack={4} anchorOrigin={{ vertical: 'top', horizontal: 'right' }}>
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </SnackbarProvider>
    </ThemeProvider>
  </StrictMode>,
);
