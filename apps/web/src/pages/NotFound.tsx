import { Button, Paper, Typography } from '@mui/material';
import { Link } from 'react-router';
import { HOME_PATH } from '../lib/screens';

export default function NotFound() {
  return (
    <Paper sx={{ p: 6, textAlign: 'center' }}>
      <Typography variant="h4">404</Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        Página no encontrada
      </Typography>
      <Button component={Link} to={HOME_PATH} variant="contained">
        Ir al inicio
      </Button>
    </Paper>
  );
}
