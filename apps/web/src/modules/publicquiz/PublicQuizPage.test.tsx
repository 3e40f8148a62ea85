// The public survey page against a stubbed API: the questionnaire, required answers, the body
// sent, the thank-you page, and the pages of answered, expired and unknown links.
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { answerText } from '../sales/ResponsesDialog';
import PublicQuizPage, { missingRequired } from './PublicQuizPage';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const QUIZ = {
  quiz: {
    id: 1,
    title: 'Encuesta de satisfacción de venta',
    description: null,
    kind: 'sales',
    questions: [
      { id: 11, order: 1, text: 'Atención del asesor', type: 'rating4', options: null, required: true },
      { id: 12, order: 2, text: 'Le explicaron la garantía', type: 'yesno', options: null, required: true },
      { id: 13, order: 3, text: 'Recomendaria', type: 'choice', options: ['Si', 'Tal vez'], required: true },
      { id: 14, order: 4, text: 'Comentarios', type: 'text', options: null, required: false },
    ],
  },
  dealer: { name: 'Gamma Motors' },
  vehicle: { brand: 'Volkswagen', model: 'Modelo Uno', year: 2025, vin: '***********123456' },
  buyer_name: 'María Quispe',
  expires_at: '2027-01-01T00:00:00.000Z',
};

const page = (token = 'abc') =>
  render(
    <MemoryRouter initialEntries={[`/encuesta?token=${token}`]}>
      <PublicQuizPage />
    </MemoryRouter>,
  );

afterEach(() => vi.unstubAllGlobals());

describe('missingRequired', () => {
  it('lists required questions without an answer', () => {
    expect(missingRequired(QUIZ.quiz.questions as any, { 11: 4, 12: '' })).toEqual([12, 13]);
  });
});

describe('/encuesta', () => {
  it('asks every question, refuses missing answers, sends them and thanks', async () => {
    const fetch = vi.fn(async (_url: string, init?: RequestInit) =>
      init?.method === 'POST'
        ? json(200, { success: true, result: { saved: true, message: 'Gracias por responder la encuesta' } })
        : json(200, { success: true, result: QUIZ }),
    );
    vi.stubGlobal('fetch', fetch);
    page();
    expect(await screen.findByText('Gamma Motors')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Enviar respuestas' }));
    expect(screen.getAllByText('Esta pregunta es obligatoria')).toHaveLength(3);
    fireEvent.click(screen.getByRole('button', { name: '4 - Muy satisfecho' }));
    fireEvent.click(screen.getAllByLabelText('No')[0]);
    fireEvent.click(screen.getByLabelText('Tal vez'));
    fireEvent.click(screen.getByRole('button', { name: 'Enviar respuestas' }));
    expect(await screen.findByText('Gracias por responder la encuesta')).toBeTruthy();
    const [url, init] = fetch.mock.calls[1];
    expect(url).toBe('/api/public/quiz/abc');
    expect(JSON.parse(String(init?.body))).toEqual({
      answers: [
        { question_id: 11, value: 4 },
        { question_id: 12, value: 'No' },
        { question_id: 13, value: 'Tal vez' },
      ],
    });
  });

  it("names the ratings with the questionnaire's labels, as the back office does", async () => {
    const labels = ['Pésimo', 'Regular', 'Bien', 'Excelente'];
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        json(200, { success: true, result: { ...QUIZ, quiz: { ...QUIZ.quiz, rating_labels: labels } } }),
      ),
    );
    page();
    expect(await screen.findByRole('button', { name: '4 - Excelente' })).toBeTruthy();
    expect(screen.getByText('Excelente')).toBeTruthy();
    const rating = { question_id: 11, question: 'q', question_type: 'rating4', value: '4', rating: 4 };
    expect(answerText(rating, labels)).toBe('4 - Excelente');
  });

  it('the default labels are the same on the survey page and in the back office', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json(200, { success: true, result: QUIZ })),
    );
    page();
    // The page used to say 'Muy bueno' under 4 while the back office said '4 - Muy satisfecho'.
    const four = await screen.findByRole('button', { name: '4 - Muy satisfecho' });
    // Its visible text reads as its name (a space between the number and the label: axe's
    // label-content-name-mismatch), not '4Muy satisfecho'.
    expect(four.textContent).toBe('4 Muy satisfecho');
    const rating = { question_id: 11, question: 'q', question_type: 'rating4', value: '4', rating: 4 };
    expect(answerText(rating)).toBe('4 - Muy satisfecho');
  });

  it.each([
    [409, 'Esta encuesta ya fue respondida'],
    [410, 'El enlace de la encuesta ha expirado'],
    [404, 'Encuesta no encontrada'],
  ])('a link answered %i shows its own page', async (status, message) => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json(status, { success: false, result: null, error: { code: status, message } })),
    );
    page();
    expect(await screen.findByText(message)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Enviar respuestas' })).toBeNull();
  });

  it('without a token: not found, no call', async () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    page('');
    await waitFor(() => expect(screen.getByText('Encuesta no encontrada')).toBeTruthy());
    expect(fetch).not.toHaveBeenCalled();
  });
});
