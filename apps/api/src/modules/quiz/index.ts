// Satisfaction surveys: questionnaires, questions, responses and alerts (resources), and the
// invitations, public survey, alert reply/close and statistics (actions).
import { defineModule } from '../../core/registry';
import { quizActions } from './quiz.actions';
import { alertResource, questionResource, quizResource, responseResource } from './quiz.resources';

export const quizModule = defineModule({
  name: 'quiz',
  resources: [quizResource, questionResource, responseResource, alertResource],
  actions: quizActions,
});
