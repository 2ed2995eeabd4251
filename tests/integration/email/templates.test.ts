import fs from 'node:fs'
import path from 'node:path'
import { isNull } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { emailTemplates } from '#db/schema/index'
import {
  DEFAULT_TEMPLATES,
  TEMPLATE_KEYS,
  TEMPLATE_PLACEHOLDERS,
  escapeHtml,
  findUnknownPlaceholders,
  renderTemplate,
} from '#app/modules/email/templates'
import { contrastRatio } from '#app/lib/colour'
import { useTestDatabase } from '#tests/support/database'

const db = useTestDatabase()

describe('renderTemplate', () => {
  const template = {
    subject: 'Feedback for {{employeeName}}',
    body: 'Hello {{colleagueName}},\n\n{{employeeName}} asked for your view.\nThanks!\n\n{{link}}\n\nBye',
  }

  it('escapes values in the html part and keeps them raw in the text part', () => {
    const evil = '<script>alert("x")</script> & Co'
    const out = renderTemplate(template, {
      employeeName: evil,
      colleagueName: 'Sam',
      link: 'https://x.test/a?b=1&c=2',
    })
    expect(out.html).not.toContain('<script>')
    expect(out.html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; Co')
    expect(out.text).toContain(`${evil} asked for your view.`)
    expect(out.subject).toBe(`Feedback for ${evil}`)
    // The link is a button plus the spelled-out address, escaped inside the attribute too.
    expect(out.html).toContain('href="https://x.test/a?b=1&amp;c=2"')
    expect(out.html.match(/href="https:\/\/x\.test\/a\?b=1&amp;c=2"/g)).toHaveLength(2)
    expect(out.text).toContain('\nhttps://x.test/a?b=1&c=2\n')
  })

  it('makes one <p> per paragraph, with line breaks inside a paragraph', () => {
    const out = renderTemplate(template, {
      employeeName: 'Ann',
      colleagueName: 'Sam',
      link: 'https://x.test/',
    })
    expect(out.html).toContain('>Hello Sam,</p>')
    expect(out.html).toContain('Ann asked for your view.<br>\nThanks!</p>')
    expect(out.html).toContain('>Bye</p>')
    expect(out.html).toMatch(/<html lang="en">/)
    expect(out.text).toBe('Hello Sam,\n\nAnn asked for your view.\nThanks!\n\nhttps://x.test/\n\nBye\n')
  })

  it('shows the brand name in the header, in the brand colour, and rejects colours that are not hex', () => {
    const branded = renderTemplate(
      template,
      { link: 'https://x.test/' },
      {
        brand: { name: 'Acme <Consulting>', primaryColor: '#aa0000', senderName: 'Acme Talent' },
      },
    )
    expect(branded.html).toMatch(/background-color:#aa0000[^>]*>\s*<h1[^>]*>Acme &lt;Consulting&gt;<\/h1>/)
    expect(branded.html).toContain('Sent by Acme Talent on behalf of Acme &lt;Consulting&gt;.')
    const hostile = renderTemplate(
      template,
      {},
      { brand: { name: 'X', primaryColor: 'red;background:url(x)' } },
    )
    expect(hostile.html).not.toContain('url(x)')
  })

  it('shows the brand’s logo, colours and accent, with text that reads on them (issue 7 item 22)', () => {
    const out = renderTemplate(
      template,
      { link: 'https://x.test/' },
      {
        brand: {
          name: 'Acme & Co',
          primaryColor: '#1e3a8a',
          accentColor: '#0f766e',
          logoUrl: 'https://portal.test/files/1c9f2d1e-0000-4000-8000-000000000001',
        },
      },
    )
    expect(out.html).toContain(
      '<img src="https://portal.test/files/1c9f2d1e-0000-4000-8000-000000000001" alt="Acme &amp; Co"',
    )
    // The logo sits above the coloured band with the name, and an accent stripe runs below it.
    expect(out.html.indexOf('<img')).toBeLessThan(out.html.indexOf('<h1'))
    expect(out.html).toMatch(
      /background-color:#1e3a8a[^>]*>\s*<h1[^>]*color:#ffffff[^>]*>Acme &amp; Co<\/h1>/,
    )
    expect(out.html).toContain('background-color:#0f766e')
    // The button uses the brand colour too, with its readable text colour.
    expect(out.html).toMatch(/background-color:#1e3a8a;color:#ffffff;[^>]*>Open the link<\/a>/)
  })

  it('keeps text on the brand colour readable: dark on a light colour, a deeper band for a mid-tone', () => {
    const light = renderTemplate(
      template,
      { link: 'https://x.test/' },
      { brand: { name: 'Sun', primaryColor: '#fde047' } },
    )
    expect(light.html).toMatch(/background-color:#fde047[^>]*>\s*<h1[^>]*color:#0f172a/)
    // White on #8866bc is 4.49:1, short of AA: the band is deepened just enough.
    const mid = renderTemplate(
      template,
      { link: 'https://x.test/' },
      { brand: { name: 'Lilac', primaryColor: '#8866bc' } },
    )
    expect(mid.html).not.toContain('background-color:#8866bc')
    const band = /background-color:(#[0-9a-f]{6})[^>]*>\s*<h1[^>]*color:(#[0-9a-f]{6})/.exec(mid.html)!
    expect(contrastRatio(band[1]!, band[2]!)).toBeGreaterThanOrEqual(4.5)
  })

  it('leaves out a logo address that is not a web address, and no logo means no image', () => {
    const odd = renderTemplate(template, {}, { brand: { name: 'X', logoUrl: 'javascript:alert(1)' } })
    expect(odd.html).not.toContain('<img')
    expect(odd.html).not.toContain('javascript:')
    expect(renderTemplate(template, {}, { brand: { name: 'X' } }).html).not.toContain('<img')
  })

  it('does not make a clickable link out of a non-web URL', () => {
    const out = renderTemplate(template, { link: 'javascript:alert(1)' })
    expect(out.html).not.toContain('href="javascript:')
    expect(out.html).toContain('javascript:alert(1)')
  })

  it('keeps the subject on one line and tidies a missing greeting name', () => {
    const out = renderTemplate(template, { employeeName: 'Ann\r\nBcc: evil@x.test', link: 'https://x.test/' })
    expect(out.subject).toBe('Feedback for Ann Bcc: evil@x.test')
    expect(out.text.startsWith('Hello,\n')).toBe(true)
  })

  it('escapeHtml covers the five special characters', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;',
    )
  })
})

describe('findUnknownPlaceholders', () => {
  it('reports placeholders a template may not use, once each', () => {
    expect(
      findUnknownPlaceholders(
        'Hi {{colleagueName}} {{nmae}} {{ nmae }} {{link}} {{due-date}}',
        'colleague_invite',
      ),
    ).toEqual(['nmae', 'due-date'])
    // employeeName belongs to invites, not to password resets.
    expect(findUnknownPlaceholders('{{employeeName}} {{link}}', 'reset_password')).toEqual(['employeeName'])
    expect(findUnknownPlaceholders('no placeholders here', 'reminder')).toEqual([])
  })

  it('finds none in the default templates, each of which carries a link', () => {
    for (const key of TEMPLATE_KEYS) {
      const { subject, body } = DEFAULT_TEMPLATES[key]
      expect(findUnknownPlaceholders(subject + body, key), key).toEqual([])
      expect(body, key).toContain('{{link}}')
      expect(TEMPLATE_PLACEHOLDERS[key], key).toContain('link')
    }
  })
})

describe('default templates in the database', () => {
  it('equal DEFAULT_TEMPLATES, one row per key', async () => {
    const rows = await db()
      .select({ key: emailTemplates.key, subject: emailTemplates.subject, body: emailTemplates.body })
      .from(emailTemplates)
      .where(isNull(emailTemplates.brandId))
    const inDb = Object.fromEntries(rows.map((r) => [r.key, { subject: r.subject, body: r.body }]))
    expect(rows).toHaveLength(TEMPLATE_KEYS.length)
    expect(inDb).toEqual(DEFAULT_TEMPLATES)
  })

  it('are inserted by a migration that is safe to run again', () => {
    // 0001 inserted the first keys; 0007 the keys the back office added (programme_open, admin_invite);
    // 0014 answer management's response_reopened; 0016 the one-time sign-in link; 0026 nomination's four;
    // 0028 the development plan's check-in and the report shared with a manager.
    const files = [
      '0001_default-email-templates.sql',
      '0007_back-office-people-and-programmes.sql',
      '0014_answer-management.sql',
      '0017_sign-in-link.sql',
      '0026_nominations.sql',
      '0028_plans-and-sharing.sql',
    ]
    const texts = files.map((f) => fs.readFileSync(path.resolve('migrations', f), 'utf8'))
    for (const text of texts) expect(text).toMatch(/ON CONFLICT DO NOTHING;\s*$/)
    const sqlText = texts.join('\n')
    // 0015 changed one sentence of the colleague invitation into {{privacyNote}}: applying that
    // change to the inserted text gives today's default (the test above checks the database).
    const changed = fs.readFileSync(
      path.resolve('migrations', '0015_scheme-manager-below-threshold.sql'),
      'utf8',
    )
    const [, from, to] = /replace\("body", \$old\$([^$]+)\$old\$, \$new\$([^$]+)\$new\$\)/.exec(changed)!
    expect(changed).toContain(`position($old$${from}$old$ in "body") > 0`)
    for (const key of TEMPLATE_KEYS) {
      const shipped =
        key === 'colleague_invite'
          ? DEFAULT_TEMPLATES[key].body.replace(to!, from!)
          : DEFAULT_TEMPLATES[key].body
      expect(sqlText, key).toContain(`$tpl$${shipped}$tpl$`)
    }
  })
})
