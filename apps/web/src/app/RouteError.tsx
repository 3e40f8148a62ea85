// Shown when a screen fails to load (a chunk that timed out, a new deployment) or throws.
import { Box, Button, Paper, Typography } from '@mui/material';
import { useRouteError } from 'react-router';

export function RouteError() {
  const error = useRouteError() as Error | undefined;
  return (
    <Box sx={{ p: 4, display: 'grid', placeItems: 'center' }}>
      <Paper sx={{ p: 4, maxWidth: 520, textAlign: 'center' }}>
        <Typography variant="h6" gutterBottom>
          No se pudo abrir la página
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          {error?.message ?? 'Ocurrió un error al procesar la solicitud'}
        </Typography>
        <Button variant="contained" onClick={() => window.location.reload()}>
          Recargar
        </Button>
      </Paper>
    </Box>
  );
}
