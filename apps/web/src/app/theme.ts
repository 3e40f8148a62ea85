import { LIMITS } from '@app/contracts';
import { esES } from '@mui/material/locale';
import { createTheme } from '@mui/material/styles';

/** The `md` breakpoint of MUI's default theme: below it the shell is the phone layout. */
const MD = 900;

export const theme = createTheme(
  {
    // MUI's warning (#ed6c02, white text at 3.11:1) and info (#0288d1, 3.86:1) darkened just enough
    // for white text and text on white at 4.5:1 (WCAG AA, axe's color-contrast): 4.62 and 4.80.
    palette: {
      primary: { main: LIMITS.primaryColor },
      warning: { main: '#bf5600' },
      info: { main: '#0277bd' },
      background: { default: '#f4f6f8' },
    },
    shape: { borderRadius: 6 },
    components: {
      MuiTextField: { defaultProps: { size: 'small', fullWidth: true } },
      MuiButton: { defaultProps: { disableElevation: true } },
      // A progress bar has a name (axe's aria-progressbar-name); a bar of a value names itself.
      MuiLinearProgress: { defaultProps: { 'aria-label': 'Cargando' } },
      MuiCircularProgress: { defaultProps: { 'aria-label': 'Cargando' } },
      // Below `md` every dialog but a short question (ConfirmDialog: class dialog-compact) fills
      // the screen. The selector outweighs the widths dialogs set with sx for larger screens.
      MuiDialog: {
        styleOverrides: {
          paper: {
            [`@media (max-width: ${MD - 0.05}px)`]: {
              '.MuiDialog-root:not(.dialog-compact) &': {
                margin: 0,
                width: '100%',
                maxWidth: '100%',
                height: '100%',
                maxHeight: 'none',
                borderRadius: 0,
              },
            },
          },
        },
      },
    },
  },
  esES,
);
