// POST /api/auth/download-ticket: the signed-in client asks for a ticket for one download link
// (core/download-ticket), so an address a browser opens never carries the session.
import { type DownloadTicket, downloadTicketResultSchema, downloadTicketSchema } from '@app/contracts';
import { defineAction } from '../../core/action';
import { issueTicket } from '../../core/download-ticket';

export const downloadTicketAction = defineAction({
  method: 'POST',
  path: '/api/auth/download-ticket',
  summary: 'Ticket de un solo uso (60 s) para abrir una descarga con un enlace (?ticket=)',
  tags: ['Auth'],
  access: 'login',
  audit: { exempt: 'Un ticket de descarga de un solo uso para la propia sesión' },
  body: downloadTicketSchema,
  result: downloadTicketResultSchema,
  async handler({ app, db, user, body }): Promise<DownloadTicket> {
    return issueTicket(app, db, user, body.path);
  },
});
