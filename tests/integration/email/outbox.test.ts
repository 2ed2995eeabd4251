import { eq } from 'drizzle-orm'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { brands, emailOutbox, emailTemplates } from '#db/schema/index'
import { getEnv, parseEnv, resetEnvCache } from '#app/config/env.server'
import { log } from '#app/lib/logger.server'
import { enqueueEmail, processOutboxOnce, startOutboxWorker } from '#app/modules/email/outbox.server'
import { storeImage } from '#app/modules/file/file.server'
import { useTestDatabase } from '#tests/support/database'

const db = useTestDatabase()

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
)

afterEach(() => {
  vi.restoreAllMocks()
})

const inviteValues = {
  colleagueName: 'Sam Rivera',
  employeeName: 'Ann Lee',
  dueDate: '30 June 2026',
  link: 'http://localhost:3000/verification?mode=invite&code=abc123',
}

describe('enqueueEmail', () => {
  it('renders the default template and queues the message', async () => {
    const { id } = await enqueueEmail(db(), {
      to: 'sam@example.com',
      template: 'colleague_invite',
      values: inviteValues,
      entity: 'assignment',
      entityId: '00000000-0000-4000-8000-000000000001',
    })
    const [row] = await db().select().from(emailOutbox).where(eq(emailOutbox.id, id))
    expect(row).toMatchObject({
      recipient: 'sam@example.com',
      templateKey: 'colleague_invite',
      status: 'queued',
      attempts: 0,
      subject: 'Ann Lee would value your feedback',
      entity: 'assignment',
      entityId: '00000000-0000-4000-8000-000000000001',
      sentAt: null,
    })
    expect(row.text).toContain('Hello Sam Rivera,')
    expect(row.text).toContain(inviteValues.link)
    expect(row.text).toContain('Please respond by 30 June 2026:')
    // Without a brand the portal's own name stands in.
    expect(row.text).toContain('run by Panorama')
    expect(row.html).toContain('href="http://localhost:3000/verification?mode=invite&amp;code=abc123"')
  })

  it('is written in the caller’s transaction: a rollback leaves no message', async () => {
    const before = await db().select({ id: emailOutbox.id }).from(emailOutbox)
    await expect(
      db().transaction(async (tx) => {
        await enqueueEmail(tx, {
          to: 'rollback@example.com',
          template: 'reset_password',
          values: { link: 'http://x/1' },
        })
        throw new Error('the change that caused the e-mail failed')
      }),
    ).rejects.toThrow('the change that caused the e-mail failed')
    const rows = await db()
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.recipient, 'rollback@example.com'))
    expect(rows).toHaveLength(0)
    expect(await db().select({ id: emailOutbox.id }).from(emailOutbox)).toHaveLength(before.length)

    const { id } = await db().transaction((tx) =>
      enqueueEmail(tx, {
        to: 'commit@example.com',
        template: 'reset_password',
        values: { link: 'http://x/2' },
      }),
    )
    const [row] = await db().select().from(emailOutbox).where(eq(emailOutbox.id, id))
    expect(row.recipient).toBe('commit@example.com')
  })

  it('uses the brand’s own template when it has one, and the brand’s name and colour either way', async () => {
    const [acme] = await db()
      .insert(brands)
      .values({ name: 'Acme Consulting', primaryColor: '#aa0000', senderName: 'Acme Talent Team' })
      .returning()
    const [plain] = await db().insert(brands).values({ name: 'Plain Partners' }).returning()
    await db().insert(emailTemplates).values({
      key: 'reminder',
      brandId: acme.id,
      subject: 'Acme: {{schemeName}} closes {{dueDate}}',
      body: 'Hi {{recipientName}},\n\nJust a nudge from {{brandName}}.\n\n{{link}}',
    })

    const values = { recipientName: 'Ann', schemeName: 'Leaders 2026', dueDate: '1 July', link: 'http://x/r' }
    const own = await enqueueEmail(db(), {
      to: 'ann@example.com',
      template: 'reminder',
      brandId: acme.id,
      values,
    })
    const fallback = await enqueueEmail(db(), {
      to: 'ann@example.com',
      template: 'reminder',
      brandId: plain.id,
      values,
    })
    const none = await enqueueEmail(db(), { to: 'ann@example.com', template: 'reminder', values })
    const rows = Object.fromEntries(
      (await db().select().from(emailOutbox).where(eq(emailOutbox.recipient, 'ann@example.com'))).map((r) => [
        r.id,
        r,
      ]),
    )

    expect(rows[own.id].subject).toBe('Acme: Leaders 2026 closes 1 July')
    expect(rows[own.id].text).toBe('Hi Ann,\n\nJust a nudge from Acme Consulting.\n\nhttp://x/r\n')
    expect(rows[own.id].html).toContain('background-color:#aa0000')
    expect(rows[own.id].senderName).toBe('Acme Talent Team')

    expect(rows[fallback.id].subject).toBe('A friendly reminder: your feedback questionnaire is still open')
    expect(rows[fallback.id].text).toContain('The Plain Partners team')
    expect(rows[fallback.id].html).toContain('>Plain Partners</h1>')
    expect(rows[fallback.id].senderName).toBeNull()

    expect(rows[none.id].subject).toBe(rows[fallback.id].subject)
    expect(rows[none.id].text).toContain('The Panorama team')
  })

  it('carries the brand’s logo as an absolute address built from APP_URL, placeholders unchanged', async () => {
    const logoFileId = await storeImage(db(), { bytes: PNG, mime: 'image/png' }, null)
    const [brand] = await db()
      .insert(brands)
      .values({ name: 'Logo Partners', primaryColor: '#123456', accentColor: '#abcdef', logoFileId })
      .returning()
    const { id } = await enqueueEmail(db(), {
      to: 'logo@example.com',
      template: 'colleague_invite',
      brandId: brand!.id,
      values: {
        recipientName: 'Pat',
        colleagueName: 'Pat',
        employeeName: 'Erin',
        schemeName: 'Leaders',
        dueDate: '30 June 2026',
        link: 'http://x/i',
      },
    })
    const [row] = await db().select().from(emailOutbox).where(eq(emailOutbox.id, id))
    expect(row!.html).toContain(`<img src="${getEnv().APP_URL}/files/${logoFileId}" alt="Logo Partners"`)
    expect(row!.html).toContain('background-color:#abcdef')
    expect(row!.subject).toBe('Erin would value your feedback')
    expect(row!.text).toContain('Please respond by 30 June 2026:')
    expect(row!.text).not.toContain('/files/')
  })

  it('refuses a recipient that is not a single address', async () => {
    await expect(
      enqueueEmail(db(), {
        to: 'a@example.com, b@example.com',
        template: 'verify_email',
        values: { link: 'http://x' },
      }),
    ).rejects.toThrow(/single e-mail address/)
  })
})

describe('without SMTP_URL', () => {
  it('logs the link so a local run can follow it, and leaves the message queued', async () => {
    delete process.env.SMTP_URL
    resetEnvCache()
    expect(getEnv().SMTP_URL).toBeUndefined()
    const info = vi.spyOn(log, 'info')
    const link = 'http://localhost:3000/verification?mode=activate&code=s3cret'
    const { id } = await enqueueEmail(db(), {
      to: 'new@example.com',
      template: 'activate_account',
      values: { link },
    })
    expect(info).toHaveBeenCalledWith('email queued (no SMTP_URL; not sent)', {
      to: 'new@example.com',
      template: 'activate_account',
      link,
    })

    expect(await processOutboxOnce()).toEqual({ sent: 0, failed: 0, retried: 0, claimed: 0 })
    const [row] = await db().select().from(emailOutbox).where(eq(emailOutbox.id, id))
    expect(row.status).toBe('queued')
    expect(row.attempts).toBe(0)
  })

  it('the worker does nothing and stops at once', async () => {
    const worker = startOutboxWorker(parseEnv({ ...process.env, SMTP_URL: '' }))
    await expect(worker.stop()).resolves.toBeUndefined()
  })
})
