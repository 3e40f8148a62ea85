// /main/capacity: the workshop capacity of the month, a row per branch: bays, technicians, hours
// per day and working days typed or pasted, the available hours computed (never typed), totals
// below. The export names its file (result.filename) and then downloads it.
import {
  availableHours,
  CAPACITY_FIELDS,
  type CapacityRow,
  capacityCalls,
  formatMeasure,
  messages,
} from '@app/contracts';
import FileDownload from '@mui/icons-material/FileDownload';
import { Alert, Button, LinearProgress, Paper, Stack, Typography } from '@mui/material';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { enqueueSnackbar } from 'notistack';
import { useMemo, useState } from 'react';
import { MonthField, thisMonth, thisYear } from '../../fields/PeriodFields';
import { call, type FileResult, saveFile } from '../../lib/http';
import { useGlobalFilters } from '../../session/filters';
import { usePermission } from '../../session/session';
import { Sheet, type SheetColumn } from '../../sheet/Sheet';
import { YearPicker } from './common';

type Line = CapacityRow & Record<string, unknown>;

export default function CapacityScreen() {
  const [year, setYear] = useState(thisYear());
  const [month, setMonth] = useState(thisMonth());
  const { dealerId } = useGlobalFilters();
  const canUpdate = usePermission('Capacities.update');
  const canExport = usePermission('Capacities.export');
  const queryClient = useQueryClient();
  const query = { year, month, dealer_id: dealerId || undefined };
  const rows = useQuery({
    queryKey: ['capacities', query],
    queryFn: () => call(capacityCalls.grid, { query }),
    placeholderData: keepPreviousData,
  });
  const columns = useMemo<SheetColumn<Line>[]>(() => {
    const input = (key: string, title: string, kind: 'integer' | 'number', total: 'sum' | 'avg') => {
      const rule = CAPACITY_FIELDS.find((f) => f.key === key)!;
      const [low, high] = rule.plausible;
      return {
        key,
        title,
        type: 'number' as const,
        width: 130,
        kind,
        total,
        editable: canUpdate,
        // A count is whole ('4.5 bahías' is refused); beyond the usual range it is only warned.
        refuse: (r: Line, v: number) =>
          rule.whole && !Number.isInteger(v)
            ? `${r.branch_name}: ${rule.label} debe ser un número entero`
            : v < 0
              ? `${r.branch_name}: ${rule.label} no puede ser negativo`
              : null,
        warn: (r: Line, v: number) =>
          v < low || v > high
            ? `${r.branch_name}: ${rule.label} ${formatMeasure(v)} está fuera de lo habitual (entre ${low} y ${high})`
            : null,
      };
    };
    return [
      ...(dealerId
        ? []
        : [{ key: 'dealer_name', title: 'Concesionario', type: 'label' as const, width: 230 }]),
      { key: 'branch_name', title: 'Sede', type: 'label', width: 220 },
      input('bays', 'Bahías', 'integer', 'sum'),
      input('technicians', 'Técnicos', 'integer', 'sum'),
      input('hours_per_day', 'Horas por día', 'number', 'avg'),
      input('working_days', 'Días laborables', 'integer', 'avg'),
      {
        key: 'available',
        title: 'Horas disponibles',
        type: 'number',
        width: 150,
        kind: 'number',
        compute: availableHours,
      },
    ];
  }, [dealerId, canUpdate]);

  const exportFile = async () => {
    try {
      const prepared = await call(capacityCalls.export, { query });
      // The answer names the file and where it is (SPEC §7): the download call of the same query.
      saveFile((await call(capacityCalls.download, { query })) as FileResult, prepared.filename);
    } catch {
      // toast
    }
  };

  return (
    <Paper sx={{ p: 2 }}>
      <Stack direction="row" spacing={1} sx={{ mb: 1.5, alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
        <Typography variant="h6" sx={{ mr: 1 }}>
          Capacidades
        </Typography>
        <YearPicker value={year} onChange={setYear} />
        <MonthField value={month} onChange={setMonth} />
        <Typography variant="body2" color="text.secondary" sx={{ flex: 1 }}>
          Horas disponibles = menor entre bahías y técnicos × horas por día × días laborables
        </Typography>
        {canExport && (
          <Button startIcon={<FileDownload />} onClick={exportFile}>
            Exportar
          </Button>
        )}
      </Stack>
      {rows.isFetching && <LinearProgress sx={{ mb: 1 }} />}
      {rows.data && !rows.data.length && (
        <Alert severity="info">No hay sedes habilitadas para este filtro.</Alert>
      )}
      {!!rows.data?.length && (
        <Sheet
          label="Capacidades"
          rows={rows.data}
          columns={columns}
          rowKey={(r) => String(r.dealer_branch_id)}
          totals={[{ label: 'Total' }]}
          onSave={
            canUpdate
              ? async (changes) => {
                  const byBranch = new Map<number, Line>();
                  for (const c of changes) {
                    const row = byBranch.get(c.row.dealer_branch_id) ?? { ...c.row };
                    row[c.key] = c.value;
                    byBranch.set(c.row.dealer_branch_id, row);
                  }
                  await call(capacityCalls.batch, {
                    body: {
                      year,
                      month,
                      rows: [...byBranch.values()].map((r) => ({
                        dealer_branch_id: r.dealer_branch_id,
                        bays: r.bays,
                        technicians: r.technicians,
                        hours_per_day: r.hours_per_day,
                        working_days: r.working_days,
                      })),
                    },
                  });
                  enqueueSnackbar(messages.saved, { variant: 'success' });
                  await queryClient.invalidateQueries({ queryKey: ['capacities'] });
                }
              : undefined
          }
        />
      )}
    </Paper>
  );
}
