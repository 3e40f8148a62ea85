// The pure parts of /sales and /quiz: import report order, the filters sent with the survey
// request and their description, the questions body of the editor, percentages.
import { describe, expect, it } from 'vitest';
import { sortReport } from '../../resources/UploadDialog';
import { avg, pct } from '../quiz/format';
import { toQuestionsBody } from '../quiz/QuestionsDialog';
import { describeFilters } from './SendSurveysDialog';
import { currentFilters } from './sales.screen';

describe('sales helpers', () => {
  it('the import report lists wrong rows first, then warnings, then the rest, by row', () => {
    const r = sortReport([
      { row: 2, ok: true, errors: [] },
      { row: 3, ok: true, errors: [], warnings: ['Sin Email'] },
      { row: 5, ok: false, errors: ['x'] },
      { row: 4, ok: false, errors: ['y'] },
    ]);
    expect(r.map((e) => e.row)).toEqual([4, 5, 3, 2]);
  });

  it('current filters keep only what is set', () => {
    expect(currentFilters({ from: '2026-01-01', to: '' }, 0, 3, null)).toEqual({
      date_from: '2026-01-01',
      manufacturer_id: 3,
    });
    expect(currentFilters({ from: '', to: '2026-02-01' }, 7, 0, 'enviada')).toEqual({
      date_to: '2026-02-01',
      dealer_id: 7,
      survey_status: 'enviada',
    });
    expect(describeFilters({})).toBe('Todas las ventas (sin filtros)');
    expect(describeFilters({ survey_status: 'sin_enviar' })).toBe('Ventas con encuesta "Sin enviar"');
  });

  it('questions body: order as shown, options only for choice, ids kept', () => {
    expect(
      toQuestionsBody([
        { key: 'a', id: 9, text: ' Uno ', type: 'rating4', optionsText: 'x', required: true },
        { key: 'b', text: 'Dos', type: 'choice', optionsText: 'Si\n\n No \n', required: false },
      ]),
    ).toEqual([
      { id: 9, text: 'Uno', type: 'rating4', options: null, required: true },
      { text: 'Dos', type: 'choice', options: ['Si', 'No'], required: false },
    ]);
  });

  it('percentages and averages', () => {
    expect(pct(null)).toBe('—');
    expect(pct(0.8333).replace(',', '.')).toBe('83.3 %');
    expect(avg(3.8).replace(',', '.')).toBe('3.80');
  });
});
