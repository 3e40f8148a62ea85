import { LIMITS } from '@app/contracts';
import { esES } from '@mui/material/locale';
import { createTheme } from '@mui/material/styles';

/** The `md` breakpoint of MUI's default theme: below it the shell is the phone layout. */
const MD = 900;

export const theme = createTheme(
  {
    palette: { primary: { main: LIMITS.primaryColor }, background: { default: '#f4f6f8' } },
    shape: { borderRadius: 6 },
    components: {
      MuiTextField: { defaultProps: { size: 'small', fullWidth: true } },
      MuiButton: { defaultProps: { disableElevation: true } },
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
