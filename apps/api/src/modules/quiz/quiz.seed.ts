// The questionnaires a fresh install starts with, so invitations work at once.
import { eq } from 'drizzle-orm';
import type { Db } from '../../core/action';
import { quizQuestions, quizzes } from './quiz.tables';

type SeedQuestion = { text: string; type: string; options?: string[]; required: boolean };

/** The two questionnaires a fresh install starts with; idempotent (by title). */
export const SEED_QUIZZES: {
  title: string;
  kind: 'sales' | 'postventa';
  description: string;
  questions: SeedQuestion[];
}[] = [
  {
    title: 'Encuesta de satisfaccion de venta',
    kind: 'sales',
    description: 'Experiencia de compra y entrega del vehiculo',
    questions: [
      { text: '¿Como califica la atencion de su asesor de ventas?', type: 'rating4', required: true },
      { text: '¿Como califica las instalaciones del concesionario?', type: 'rating4', required: true },
      {
        text: '¿Como califica la entrega de su vehiculo (puntualidad, limpieza y explicacion)?',
        type: 'rating4',
        required: true,
      },
      { text: '¿Le explicaron la garantia y el plan de mantenimiento?', type: 'yesno', required: true },
      {
        text: '¿Recomendaria este concesionario a un familiar o amigo?',
        type: 'choice',
        options: ['Si, definitivamente', 'Probablemente', 'No'],
        required: true,
      },
      { text: 'Comentarios o sugerencias', type: 'text', required: false },
    ],
  },
  {
    title: 'Encuesta de satisfaccion de postventa',
    kind: 'postventa',
    description: 'Experiencia en el servicio de taller',
    questions: [
      { text: '¿Como califica la atencion de su asesor de servicio?', type: 'rating4', required: true },
      {
        text: '¿Como califica la calidad del trabajo realizado en su vehiculo?',
        type: 'rating4',
        required: true,
      },
      { text: '¿Le entregaron su vehiculo en la fecha y hora acordadas?', type: 'yesno', required: true },
      { text: '¿Como califica la relacion entre precio y servicio?', type: 'rating4', required: true },
      { text: 'Comentarios o sugerencias', type: 'text', required: false },
    ],
  },
];

export async function seedQuizzes(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    for (const q of SEED_QUIZZES) {
      const found = await tx
        .select({ id: quizzes.id })
        .from(quizzes)
        .where(eq(quizzes.title, q.title))
        .limit(1);
      if (found.length) continue;
      const [created] = await tx
        .insert(quizzes)
        .values({ title: q.title, kind: q.kind, description: q.description, active: true })
        .returning({ id: quizzes.id });
      await tx.insert(quizQuestions).values(
        q.questions.map((qq, i) => ({
          quiz_id: created.id,
          order: i + 1,
          text: qq.text,
          type: qq.type,
          options: qq.options ?? null,
          required: qq.required,
        })),
      );
    }
  });
}
