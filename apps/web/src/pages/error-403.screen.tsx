import Block from '@mui/icons-material/Block';
import { Button, Paper, Typography } from '@mui/material';
import { Link } from 'react-router';
import { HOME_PATH } from '../lib/screens';

export default function Forbidden() {
  return (
    <Paper sx={{ p: 6, textAlign: 'center' }} data-testid="error-403">
      <Block color="error" sx={{ fontSize: 56 }} />
      <Typography variant="h4">403</Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        No tiene permiso para ver esta página
      </Typography>
      <Button component={Link} to={HOME_PATH} variant="contained">
        Ir al inicio
      </Button>
    </Paper>
  );
}
