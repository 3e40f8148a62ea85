// What an upload or a survey send did, said plainly: 'Se actualizaron 2 valores', never a green '0 enviados'.
import { describe, expect, it } from 'vitest';
import { savedValuesText } from '../src/resources/UploadDialog';

describe('upload outcome', () => {
  it('names the changed values', () => {
    const r = { saved: 393, total: 336, failed: 0, report: [] };
    expect(savedValuesText({ ...r, changed: 2 })).toBe('Se actualizaron 2 valores.');
    expect(savedValuesText({ ...r, changed: 1 })).toBe('Se actualizó 1 valor.');
    expect(savedValuesText({ ...r, changed: 0 })).toBe(
      'Sin cambios: el archivo trae los mismos valores que ya estaban guardados.',
    );
    expect(savedValuesText(r)).toBe('Se guardaron 393 valores de 336 filas.');
  });
});

describe('survey sending outcome', () => {
  it('a reminder that sent nothing is not a "0 sent" success, and names the buyer', async () => {
    const { outcomeText } = await import('../src/modules/sales/SendSurveysDialog');
    expect(
      outcomeText({
        invited: 0,
        reminded: 0,
        skipped: [{ sale_id: 31, buyer: 'María Quispe', reason: 'La invitación expiró' }],
      }),
    ).toBe('No se envió ningún correo: María Quispe · La invitación expiró.');
    expect(outcomeText({ invited: 0, reminded: 1, skipped: [] })).toBe(
      'Invitaciones: 0. Recordatorios: 1. Sin enviar: 0.',
    );
  });
});
