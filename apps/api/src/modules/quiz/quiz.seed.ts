// The questionnaires a fresh install starts with, so invitations work at once.
import { and, eq, or } from 'drizzle-orm';
import type { Db } from '../../core/action';
import { withoutAccents } from '../../core/text';
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
    title: 'Encuesta de satisfacción de venta',
    kind: 'sales',
    description: 'Experiencia de compra y entrega del vehículo',
    questions: [
      { text: '¿Cómo califica la atención de su asesor de ventas?', type: 'rating4', required: true },
      { text: '¿Cómo califica las instalaciones del concesionario?', type: 'rating4', required: true },
      {
        text: '¿Cómo califica la entrega de su vehículo (puntualidad, limpieza y explicación)?',
        type: 'rating4',
        required: true,
      },
      { text: '¿Le explicaron la garantía y el plan de mantenimiento?', type: 'yesno', required: true },
      {
        text: '¿Recomendaría este concesionario a un familiar o amigo?',
        type: 'choice',
        options: ['Sí, definitivamente', 'Probablemente', 'No'],
        required: true,
      },
      { text: 'Comentarios o sugerencias', type: 'text', required: false },
    ],
  },
  {
    title: 'Encuesta de satisfacción de postventa',
    kind: 'postventa',
    description: 'Experiencia en el servicio de taller',
    questions: [
      { text: '¿Cómo califica la atención de su asesor de servicio?', type: 'rating4', required: true },
      {
        text: '¿Cómo califica la calidad del trabajo realizado en su vehículo?',
        type: 'rating4',
        required: true,
      },
      { text: '¿Le entregaron su vehículo en la fecha y hora acordadas?', type: 'yesno', required: true },
      { text: '¿Cómo califica la relación entre precio y servicio?', type: 'rating4', required: true },
      { text: 'Comentarios o sugerencias', type: 'text', required: false },
    ],
  },
];

export async function seedQuizzes(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    for (const q of SEED_QUIZZES) {
      // Earlier versions seeded these titles and questions without accents: the same survey, found
      // with or without them; an unchanged old text gets its accents.
      const plain = withoutAccents(q.title);
      const found = await tx
        .select({ id: quizzes.id, title: quizzes.title })
        .from(quizzes)
        .where(or(eq(quizzes.title, q.title), eq(quizzes.title, plain)))
        .limit(1);
      if (found.length) {
        if (found[0].title !== q.title) {
          await tx.update(quizzes).set({ title: q.title }).where(eq(quizzes.id, found[0].id));
          for (const qq of q.questions) {
            const old = withoutAccents(qq.text);
            if (old !== qq.text)
              await tx
                .update(quizQuestions)
                .set({ text: qq.text })
                .where(and(eq(quizQuestions.quiz_id, found[0].id), eq(quizQuestions.text, old)));
          }
        }
        continue;
      }
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
