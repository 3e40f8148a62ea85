// Survey mail through a real SMTP peer (smtp-server on 127.0.0.1): delivery when SMTP is set,
// the outbox kept while it is not, and the flush that sends the outbox once it is configured.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  deliverQueued,
  flushOutbox,
  mailContext,
  queueMail,
  retryOutbox,
  sendMail,
} from '../src/modules/mail/mail.service';
import { api, createTestApp, login, type TestContext, uniq } from './harness';
import { createDealer, saleObject, setSetting, vinFactory } from './sales-fixtures';
import { type SmtpStub, startSmtpStub } from './smtp-stub';

let t: TestContext;
let admin: string;
let dealerCode: string;
let smtp: SmtpStub;
let smtpUrl: string;
let received: SmtpStub['received'];
const vin = vinFactory();
const tag = uniq('m').toLowerCase();

async function newSale(address: string): Promise<number> {
  const v = vin();
  const res = await api(t.app, 'POST', '/api/sales/batch', {
    token: admin,
    body: { rows: [saleObject(dealerCode, v, { email: address })] },
  });
  expect(res.body.result.saved).toBe(1);
  const [r] = await t.handle.query<{ id: number }>('select id from sales where vin = $1', [v]);
  return r.id;
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await login(t.app);
  dealerCode = uniq('MD');
  await createDealer(t.app, admin, dealerCode, 'Delta Autos');
  smtp = await startSmtpStub();
  smtpUrl = smtp.url;
  received = smtp.received;
});
afterAll(async () => {
  await smtp?.close();
  await t?.close();
});

/** Quoted-printable soft breaks removed, so a long link reads whole. */
const hexBytes = (m: string) => Buffer.from(m.replace(/=/g, ''), 'hex').toString('utf8');
/** The mail as its reader sees it: encoded subject words and quoted-printable text decoded. */
const plain = (raw: string) =>
  raw
    .replace(/=\?UTF-8\?Q\?([^?]*)\?=/gi, (_, q: string) =>
      q.replace(/_/g, ' ').replace(/(=[0-9A-F]{2})+/gi, hexBytes),
    )
    .replace(/=\r?\n/g, '')
    .replace(/(=[0-9A-F]{2})+/g, hexBytes);

describe('survey mail', () => {
  it('without SMTP the invitation waits in the outbox (pending), and flush refuses clearly', async () => {
    const address = `espera.${tag}@example.com`;
    const id = await newSale(address);
    const res = await api(t.app, 'POST', '/api/sales-quiz-request', {
      token: admin,
      body: { sale_ids: [id] },
    });
    expect(res.body.result.invited).toBe(1);
    const [m] = await t.handle.query<{ status: string }>('select status from mail_outbox where "to" = $1', [
      address,
    ]);
    expect(m.status).toBe('pending');
    const [inv] = await t.handle.query<{ email_status: string }>(
      'select email_status from quiz_invitations where sale_id = $1',
      [id],
    );
    expect(inv.email_status).toBe('queued');
    expect(received).toHaveLength(0);
    const flush = await api(t.app, 'POST', '/api/mail-outbox/flush', { token: admin });
    expect(flush.status).toBe(409);
    expect(flush.body.error.message).toMatch(/^El correo no está configurado/);
  });

  it('once SMTP is configured, the flush delivers what was waiting', async () => {
    await setSetting(t.app, 'SMTP_URL', smtpUrl);
    const flush = await api(t.app, 'POST', '/api/mail-outbox/flush', { token: admin });
    expect(flush.status, JSON.stringify(flush.body)).toBe(200);
    expect(flush.body.result).toMatchObject({ sent: 1, failed: 0, pending: 0 });
    expect(received.map((r) => r.to)).toEqual([[`espera.${tag}@example.com`]]);
    const [m] = await t.handle.query<{ status: string; sent_at: Date | null }>(
      'select status, sent_at from mail_outbox where "to" = $1',
      [`espera.${tag}@example.com`],
    );
    expect(m.status).toBe('sent');
    expect(m.sent_at).toBeTruthy();
  });

  it('with SMTP the invitation is delivered at once, and its link opens the survey', async () => {
    const address = `directo.${tag}@example.com`;
    const id = await newSale(address);
    const res = await api(t.app, 'POST', '/api/sales-quiz-request', {
      token: admin,
      body: { sale_ids: [id] },
    });
    expect(res.body.result.invited).toBe(1);
    const mail = received.find((r) => r.to.includes(address));
    expect(mail).toBeDefined();
    const body = plain(mail!.data);
    expect(body).toContain('Subject: Encuesta de Satisfacción');
    const link = /(http:\/\/localhost:\d+\/encuesta\?token=[A-Za-z0-9_-]{43})/.exec(body);
    expect(link).not.toBeNull();
    const token = new URL(link![1]).searchParams.get('token');
    const survey = await api(t.app, 'GET', `/api/public/quiz/${token}`);
    expect(survey.status).toBe(200);
    expect(survey.body.result.dealer.name).toBe('Delta Autos');
    const [inv] = await t.handle.query<{ email_status: string }>(
      'select email_status from quiz_invitations where sale_id = $1',
      [id],
    );
    expect(inv.email_status).toBe('sent');
  });

  it('a failed delivery is recorded, not lost', async () => {
    await setSetting(t.app, 'SMTP_URL', 'smtp://127.0.0.1:1');
    const address = `falla.${tag}@example.com`;
    const id = await newSale(address);
    const res = await api(t.app, 'POST', '/api/sales-quiz-request', {
      token: admin,
      body: { sale_ids: [id] },
    });
    expect(res.body.result.invited).toBe(1);
    const [m] = await t.handle.query<{ status: string; error: string }>(
      'select status, error from mail_outbox where "to" = $1',
      [address],
    );
    expect(m.status).toBe('failed');
    expect(m.error).toBeTruthy();
    const [inv] = await t.handle.query<{ email_status: string }>(
      'select email_status from quiz_invitations where sale_id = $1',
      [id],
    );
    expect(inv.email_status).toBe('failed');
    // While it has failed, the sale counts as an invalid contact in the statistics.
    const [sale] = await t.handle.query<{ dealer_id: number; year: number }>(
      'select dealer_id, extract(year from sale_date)::int as year from sales where id = $1',
      [id],
    );
    const invalid = async () => {
      const stats = await api(
        t.app,
        'GET',
        `/api/table-stats?year=${sale.year}&dealer_id=${sale.dealer_id}`,
        {
          token: admin,
        },
      );
      return stats.body.result.cobertura[0].invalid_contacts as number;
    };
    const invalidBefore = await invalid();
    expect(invalidBefore).toBeGreaterThanOrEqual(1);
    await setSetting(t.app, 'SMTP_URL', smtpUrl);
    const flush = await api(t.app, 'POST', '/api/mail-outbox/flush', { token: admin });
    expect(flush.body.result).toMatchObject({ sent: 1, failed: 0, pending: 0 });
    expect(received.some((r) => r.to.includes(address))).toBe(true);
    // The retry that delivered it updates the invitation: no longer an invalid contact.
    const [late] = await t.handle.query<{ email_status: string }>(
      'select email_status from quiz_invitations where sale_id = $1',
      [id],
    );
    expect(late.email_status).toBe('sent');
    expect(await invalid()).toBe(invalidBefore - 1);
  });

  it('the link lasts the days of SURVEY_EXPIRY_DAYS', async () => {
    await setSetting(t.app, 'SURVEY_EXPIRY_DAYS', '10');
    const id = await newSale(`diez.${tag}@example.com`);
    await api(t.app, 'POST', '/api/sales-quiz-request', { token: admin, body: { sale_ids: [id] } });
    const [inv] = await t.handle.query<{ expires_at: Date }>(
      'select expires_at from quiz_invitations where sale_id = $1',
      [id],
    );
    const days = (new Date(inv.expires_at).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(9.9);
    expect(days).toBeLessThanOrEqual(10);
    await setSetting(t.app, 'SURVEY_EXPIRY_DAYS', '60');
  });

  it('a queued mail delivered while the automatic retry runs is sent once', async () => {
    await setSetting(t.app, 'SMTP_URL', smtpUrl);
    const ctx = mailContext(t.app);
    const address = `una.vez.${tag}@example.com`;
    const id = await queueMail(ctx.db, { to: address, subject: 'Una vez', text: 'Una sola vez.' });
    // The call that queued it and the retry, at the same moment (on two servers, or one).
    const [outcome] = await Promise.all([deliverQueued(ctx, [id]), retryOutbox(ctx), retryOutbox(ctx)]);
    expect(outcome.get(id)).toBe('sent');
    expect(received.filter((r) => r.to.includes(address))).toHaveLength(1);
    // Once sent, delivering it again sends nothing.
    await deliverQueued(ctx, [id]);
    expect(received.filter((r) => r.to.includes(address))).toHaveLength(1);
  });
});

describe('attachments through the outbox', () => {
  const file = (filename: string) => ({
    filename,
    contentType: 'text/csv',
    content: Buffer.from(`vin;modelo\n${filename};Hilux\n`).toString('base64'),
  });
  const attachmentsOf = async (id: number) =>
    (
      await t.handle.query<{ status: string; names: string | null }>(
        `select status, (select string_agg(a->>'filename', ', ') from jsonb_array_elements(attachments) a) as names
         from mail_outbox where id = $1`,
        [id],
      )
    )[0];
  /** The received mail to `address`, with the file's name and its content (base64, as sent). */
  const arrived = (address: string, f: ReturnType<typeof file>) => {
    const mails = received.filter((r) => r.to.includes(address));
    expect(mails).toHaveLength(1);
    const data = mails[0].data.replace(/\r?\n/g, '');
    expect(data).toContain(`filename=${f.filename}`);
    expect(data).toContain(f.content);
  };

  it('a message queued (or sent) without SMTP keeps its files, and they go out once SMTP is set', async () => {
    await setSetting(t.app, 'SMTP_URL', '');
    const ctx = mailContext(t.app);
    const queued = { address: `adjunto.cola.${tag}@example.com`, file: file(`cola-${tag}.csv`) };
    const direct = { address: `adjunto.directo.${tag}@example.com`, file: file(`directo-${tag}.csv`) };
    const id = await queueMail(ctx.db, {
      to: queued.address,
      subject: 'Con adjunto (cola)',
      text: 'Va el archivo.',
      attachments: [queued.file],
    });
    expect((await deliverQueued(ctx, [id])).get(id)).toBe('pending');
    const outcome = await sendMail(ctx, {
      to: direct.address,
      subject: 'Con adjunto (directo)',
      text: 'Va el archivo.',
      attachments: [direct.file],
    });
    expect(outcome.status).toBe('pending');
    expect(await attachmentsOf(id)).toEqual({ status: 'pending', names: queued.file.filename });
    expect(await attachmentsOf(outcome.outboxId)).toEqual({ status: 'pending', names: direct.file.filename });

    await setSetting(t.app, 'SMTP_URL', smtpUrl);
    expect((await deliverQueued(ctx, [id])).get(id)).toBe('sent');
    arrived(queued.address, queued.file);
    expect((await flushOutbox(ctx)).sent).toBeGreaterThanOrEqual(1);
    expect((await attachmentsOf(outcome.outboxId)).status).toBe('sent');
    arrived(direct.address, direct.file);
  });
});
