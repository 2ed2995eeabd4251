import { describe, expect, it } from 'vitest'
import { sanitizeEmailHtml } from '#app/modules/email/sanitize.server'
import {
  closestPlaceholder,
  parseTemplateId,
  placeholderProblems,
  templateSchema,
} from '#app/modules/email/schemas'
import { renderTemplate } from '#app/modules/email/templates'

/**
 * The template editor's rules without a server: the placeholder checks the browser and the action
 * share, the HTML allow-list (ADR 016), and how an admin's HTML is rendered.
 */

describe('placeholder validation', () => {
  const schema = templateSchema('colleague_invite')
  const form = (fields: Record<string, string>) => ({
    intent: 'save',
    subject: 'Hi',
    body: 'Body {{link}}',
    html: '',
    ...fields,
  })
  const errorsOf = (fields: Record<string, string>) => {
    const result = schema.safeParse(form(fields))
    if (result.success) return {}
    const by: Record<string, string[]> = {}
    for (const issue of result.error.issues) (by[String(issue.path[0])] ??= []).push(issue.message)
    return by
  }

  it('accepts every placeholder the e-mail offers, in every field, with or without spaces', () => {
    const all =
      '{{recipientName}} {{brandName}} {{appUrl}} {{ link }} {{employeeName}} {{colleagueName}} {{schemeName}} {{dueDate}}'
    // Except {{link}} in the subject: it carries a one-time code (ADR 026).
    expect(errorsOf({ subject: all.replace('{{ link }} ', ''), body: all, html: `<p>${all}</p>` })).toEqual(
      {},
    )
  })

  it('refuses unknown and misspelt placeholders in the subject, the text and the HTML, each in its own field', () => {
    expect(errorsOf({ subject: '{{employeName}}' })).toEqual({
      subject: ['{{employeName}} is not a placeholder of this e-mail. Did you mean {{employeeName}}?'],
    })
    expect(errorsOf({ body: '{{LINK}} {{link}}' }).body).toEqual([
      '{{LINK}} is not a placeholder of this e-mail. Did you mean {{link}}?',
    ])
    expect(errorsOf({ html: '<a href="{{lnk}}">x</a> {{link}}' }).html).toEqual([
      '{{lnk}} is not a placeholder of this e-mail. Did you mean {{link}}?',
    ])
    // A placeholder another e-mail has is unknown here, and nothing close is offered.
    expect(errorsOf({ body: '{{inviterName}} {{link}}' }).body?.[0]).toMatch(
      /^\{\{inviterName\}\} is not a placeholder of this e-mail\. It can use: \{\{recipientName\}\}, /,
    )
    expect(errorsOf({ subject: '{{due-date}}' }).subject?.[0]).toContain('Did you mean {{dueDate}}?')
  })

  it('asks for {{link}} in the text and in an HTML body', () => {
    expect(errorsOf({ body: 'No link' }).body).toEqual([
      'Include {{link}}: it is how the reader acts on this e-mail.',
    ])
    expect(errorsOf({ html: '<p>no link</p>' }).html).toEqual([
      'Include {{link}}: it is how the reader acts on this e-mail.',
    ])
  })

  it('lists each unknown name once', () => {
    expect(placeholderProblems('{{x}} {{x}} {{y}}', 'reset_password')).toHaveLength(2)
    expect(closestPlaceholder('recipient_name', 'reset_password')).toBe('recipientName')
    expect(closestPlaceholder('somethingElse', 'reset_password')).toBeUndefined()
  })

  it('reads editor ids: a key, or a key and a brand', () => {
    expect(parseTemplateId('reminder')).toEqual({ key: 'reminder', brandId: null })
    const id = '3bf0c80b-0823-40f2-86ff-a7ed232fa754'
    expect(parseTemplateId(`reminder.${id.toUpperCase()}`)).toEqual({ key: 'reminder', brandId: id })
    for (const bad of ['', 'nope', 'reminder.', 'reminder.x', `reminder.${id}.x`, `__proto__.${id}`])
      expect(parseTemplateId(bad)).toBeNull()
  })
})

describe('sanitizeEmailHtml', () => {
  const clean = sanitizeEmailHtml

  it('removes scripts, styles, frames, forms and their content', () => {
    expect(
      clean('<p>a</p><script>alert(1)</script><style>p{}</style><iframe src="https://x"></iframe>'),
    ).toBe('<p>a</p>')
    expect(clean('<form action="https://x"><input name="p"><button>Go</button></form>')).toBe('Go')
    expect(clean('<svg onload="alert(1)"><circle/></svg><math></math>')).toBe('')
    expect(
      clean(
        '<object data="x"></object><embed src="x"><link rel="stylesheet" href="x"><meta http-equiv="refresh">',
      ),
    ).toBe('')
  })

  it('removes every event handler and attribute outside the list', () => {
    expect(clean('<p onclick="x()" onmouseover="y()" class="c" id="i">t</p>')).toBe('<p>t</p>')
    expect(clean('<img src="http://localhost:3000/files/a.png" onerror="x()" alt="Logo">')).toBe(
      '<img src="http://localhost:3000/files/a.png" alt="Logo" />',
    )
  })

  it('keeps only http(s) and mailto links, and images from the portal or inline (ADR 026)', () => {
    expect(
      clean(
        '<a href="https://ok.test/">a</a><a href="mailto:hi@ok.test">b</a><a href="http://ok.test/">c</a>',
      ),
    ).toBe('<a href="https://ok.test/">a</a><a href="mailto:hi@ok.test">b</a><a href="http://ok.test/">c</a>')
    for (const href of [
      'javascript:alert(1)',
      ' JaVaScRiPt:alert(1)',
      'java&#x09;script:alert(1)',
      '&#106;avascript:alert(1)',
      'data:text/html,<script>',
      'vbscript:x',
      '//evil.test/x',
    ])
      expect(clean(`<a href="${href}">x</a>`), href).toBe('<a>x</a>')
    expect(
      clean(
        '<img src="http://plain.test/a.png"><img src="data:image/png;base64,AAAA"><img src="javascript:x">',
      ),
    ).toBe('<img /><img src="data:image/png;base64,AAAA" /><img />')
  })

  it('keeps simple inline styles and drops the dangerous ones', () => {
    expect(clean('<p style="color:#123456;text-align:center;font-weight:bold">x</p>')).toBe(
      '<p style="color:#123456;text-align:center;font-weight:bold">x</p>',
    )
    for (const style of [
      'background:url(https://evil.test/track.png)',
      'background-image:url(javascript:alert(1))',
      'width:expression(alert(1))',
      'position:fixed;top:0;left:0',
      'color:red;behavior:url(x.htc)',
      '-moz-binding:url(x)',
      'color:expression(alert(1))',
    ])
      expect(clean(`<p style="${style}">x</p>`), style).not.toMatch(
        /url|expression|position|behavior|binding/i,
      )
  })

  it('keeps structure suited to e-mail', () => {
    const html =
      '<h1>T</h1><h2>S</h2><ul><li>a</li></ul><ol><li>b</li></ol><table role="presentation" width="100%"><tbody><tr><td align="center">c</td></tr></tbody></table><p><strong>s</strong> <em>e</em><br /></p>'
    expect(clean(html)).toBe(html)
  })
})

describe('an admin-written HTML body in the rendered message', () => {
  it('goes inside the brand frame with values escaped, and the text part still comes from the text body', () => {
    const out = renderTemplate(
      {
        subject: 'S',
        body: 'Plain {{recipientName}}\n\n{{link}}',
        html: '<p>Hi {{recipientName}}</p><p><a href="{{link}}">Go</a></p>',
      },
      { recipientName: '<img src=x onerror=alert(1)>"', link: 'https://x.test/a?b=1&c=2' },
      { brand: { name: 'Acme' }, sanitize: sanitizeEmailHtml },
    )
    expect(out.html).toContain('<p>Hi &lt;img src=x onerror=alert(1)&gt;"</p>')
    expect(out.html).toContain('<a href="https://x.test/a?b=1&amp;c=2">Go</a>')
    expect(out.html).toContain('Sent on behalf of Acme.')
    expect(out.text).toBe('Plain <img src=x onerror=alert(1)>"\n\nhttps://x.test/a?b=1&c=2\n')
  })

  it('a value cannot turn a link into a script link: the sanitiser checks the filled address', () => {
    const out = renderTemplate(
      { subject: 'S', body: '{{link}}', html: '<a href="{{link}}">Go</a>' },
      { link: 'javascript:alert(1)' },
      { sanitize: sanitizeEmailHtml },
    )
    expect(out.html).toContain('<a>Go</a>')
    expect(out.html).not.toContain('javascript:')
  })

  it('a blank HTML body means the HTML part is made from the text, as before', () => {
    const a = renderTemplate(
      { subject: 'S', body: 'Hello\n\n{{link}}', html: '  ' },
      { link: 'https://x.test/' },
    )
    const b = renderTemplate({ subject: 'S', body: 'Hello\n\n{{link}}' }, { link: 'https://x.test/' })
    expect(a).toEqual(b)
  })
})
