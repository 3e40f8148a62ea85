// The spinner a route or a tab shows while its code or its session arrives.
import { Box, CircularProgress } from '@mui/material';

export function Loading() {
  return (
    // The name is the spinner's (a Box without a role may not carry one: aria-prohibited-attr).
    <Box sx={{ display: 'grid', placeItems: 'center', minHeight: 240 }}>
      <CircularProgress aria-label="Cargando" />
    </Box>
  );
}
