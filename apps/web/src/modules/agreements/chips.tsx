// How an agreement's level, status and age show in the list and its dialogs.
import { AGREEMENT_LEVELS, AGREEMENT_STATUSES } from '@app/contracts';
import { Chip } from '@mui/material';

const STATUS_COLOR: Record<string, 'default' | 'info' | 'success' | 'warning' | 'error'> = {
  pending: 'warning',
  in_progress: 'info',
  done: 'success',
  cancelled: 'default',
};
const LEVEL_COLOR: Record<string, 'default' | 'error' | 'warning'> = {
  high: 'error',
  medium: 'warning',
  low: 'default',
};

export const statusName = (s: string | null | undefined) =>
  AGREEMENT_STATUSES.find((x) => x.id === s)?.name ?? s ?? '';

export function StatusChip({ status }: { status: string }) {
  return (
    <Chip
      size="small"
      label={statusName(status)}
      color={STATUS_COLOR[status] ?? 'default'}
      variant="outlined"
    />
  );
}

export function LevelChip({ level }: { level: string }) {
  const name = AGREEMENT_LEVELS.find((x) => x.id === level)?.name ?? level;
  return <Chip size="small" label={name} color={LEVEL_COLOR[level] ?? 'default'} />;
}

/** An overdue agreement's age: red past 30 days. */
export function AgeChip({ days }: { days: number | null }) {
  if (days === null || days === undefined) return null;
  return (
    <Chip
      size="small"
      label={`${days} ${days === 1 ? 'día' : 'días'}`}
      color={days > 30 ? 'error' : 'warning'}
      aria-label={`Vencido hace ${days} dias`}
    />
  );
}
