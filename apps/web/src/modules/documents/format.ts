// Small formatters of the extranet: dates of the library (YYYY-MM-DD → DD/MM/YYYY), file sizes.

/** '2026-03-15' → '15/03/2026'. */
export const day = (iso: string | null | undefined) =>
  iso ? iso.slice(0, 10).split('-').reverse().join('/') : '';

/** An ISO time as the user's local date and hour. */
export const moment = (iso: string | null | undefined) =>
  iso
    ? new Date(iso).toLocaleString('es-PE', {
        day: '2-digit',
        month: '2-digit',
        year: 'numeric',
        hour: '2-digit',
        minute: '2-digit',
      })
    : '';

export function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
