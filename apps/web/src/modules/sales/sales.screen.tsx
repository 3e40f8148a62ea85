// /sales (CEM): the sales list on the generic screen, filtered by sale date range, brand and dealer
// (toolbar selectors) and survey status; import from the template, survey invitations and
// reminders, a sale's answers and (administrators) the mail outbox.
import { SALE_RULES, type SalesFilter, SURVEY_STATUSES, saleContract } from '@app/contracts';
import Forum from '@mui/icons-material/Forum';
import { Box, Chip, IconButton, Tooltip } from '@mui/material';
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { DateRangeFilter } from '../../fields/DateRangeFilter';
import { useTypeName } from '../../lib/generalTypes';
import { useUrlDateRange } from '../../lib/urlPeriod';
import { ResourceScreen } from '../../resources/ResourceScreen';
import { defineScreen, type ResourceScreenDef } from '../../resources/types';
import { useGlobalFilters } from '../../session/filters';
import { ResponsesDialog } from './ResponsesDialog';
import { SalesActions } from './SalesActions';

const STATUS_COLOR: Record<string, 'default' | 'info' | 'success' | 'warning'> = {
  sin_enviar: 'default',
  enviada: 'info',
  respondida: 'success',
  contacto_invalido: 'warning',
};

export function SurveyStatusChip({ status }: { status: string }) {
  const name = useTypeName('SURVEY_STATUSES', SURVEY_STATUSES)(status);
  return <Chip size="small" label={name} color={STATUS_COLOR[status] ?? 'default'} variant="outlined" />;
}

export const salesScreen = defineScreen({
  contract: saleContract,
  columns: [
    // The dealer leads: in view whatever the width (the list scrolls sideways on a phone).
    'dealer_name',
    'sale_date',
    'invoice',
    'buyer_name',
    'email',
    'vin',
    'manufacturer_name',
    'model_name',
    'year',
    { field: 'survey_status', render: (row) => <SurveyStatusChip status={row.survey_status} /> },
  ],
  actionsWidth: 140,
  dialogWidth: 800,
  form: [
    'dealer_id',
    'dealer_branch_id',
    { name: 'sale_date', default: 'today', cols: 4 },
    { name: 'invoice', cols: 4 },
    { name: 'payment_method', cols: 4 },
    'buyer_name',
    { name: 'document_type', cols: 4 },
    { name: 'document_number', cols: 4 },
    { name: 'phone', cols: 4 },
    'email',
    { name: 'vin', cols: 6 },
    // The contract allows up to 2100; the dialog offers the years a sale can have today.
    { name: 'year', max: SALE_RULES.maxYear(), cols: 6 },
    'manufacturer_id',
    { name: 'manufacturer_model_id', label: 'Modelo del catálogo', cols: 6 },
    { name: 'model_name', cols: 6 },
    'seller',
  ],
  toBody: (values) => {
    const { date_from: _f, date_to: _t, survey_status: _s, ...rest } = values as Record<string, unknown>;
    return rest;
  },
});

/** The list filters as sales-quiz-request takes them. */
export function currentFilters(
  range: { from: string; to: string },
  dealerId: number,
  manufacturerId: number,
  surveyStatus: string | null,
): SalesFilter {
  const f: SalesFilter = {};
  if (range.from) f.date_from = range.from;
  if (range.to) f.date_to = range.to;
  if (dealerId > 0) f.dealer_id = dealerId;
  if (manufacturerId > 0) f.manufacturer_id = manufacturerId;
  if (surveyStatus) f.survey_status = surveyStatus as SalesFilter['survey_status'];
  return f;
}

export default function SalesScreen() {
  const [sp] = useSearchParams();
  // A link may name the sale dates (?from=2026-01-01&to=2026-11-25), as the dashboard's do.
  const [range, setRange] = useState(useUrlDateRange());
  const [selected, setSelected] = useState<number[]>([]);
  const [responsesOf, setResponsesOf] = useState<Record<string, any> | null>(null);
  const { dealerId, manufacturerId } = useGlobalFilters();
  const surveyStatus = sp.get('filter[survey_status]');
  const filters = useMemo(
    () => currentFilters(range, dealerId, manufacturerId, surveyStatus),
    [range, dealerId, manufacturerId, surveyStatus],
  );

  const def = useMemo<ResourceScreenDef>(() => {
    const fixed: Record<string, string> = {};
    if (range.from) fixed.date_from = range.from;
    if (range.to) fixed.date_to = range.to;
    return {
      ...salesScreen,
      fixedFilters: fixed,
      onSelectionChange: setSelected,
      rowActions: (row) => (
        <Tooltip title="Respuestas de la encuesta">
          <IconButton size="small" aria-label="Respuestas" onClick={() => setResponsesOf(row)}>
            <Forum fontSize="small" />
          </IconButton>
        </Tooltip>
      ),
      header: (
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center', mb: 2 }}>
          <DateRangeFilter
            value={range}
            onChange={setRange}
            labels={['Fecha Venta desde', 'Fecha Venta hasta']}
            width={200}
          />
          <Box sx={{ flex: 1 }} />
          <SalesActions filters={filters} selected={selected} />
        </Box>
      ),
    };
  }, [range, selected, filters]);

  return (
    <>
      <ResourceScreen def={def} />
      <ResponsesDialog sale={responsesOf} onClose={() => setResponsesOf(null)} />
    </>
  );
}
