import { describe, expect, test } from 'vitest'
import { coverHtml, escapeHtml, footerTemplate, headerTemplate } from '#app/modules/pdf/cover'
import { fileSlug, reportFileName } from '#app/modules/pdf/report-pdf.server'

const brand = { name: 'Acme & Co', logoFileId: null, primaryColor: '#123456', accentColor: '#abc' }

describe('the cover and the running header and footer', () => {
  test('every text is escaped: a name cannot add markup to the printed page', () => {
    const html = coverHtml({
      brand: { ...brand, name: '<img src=x onerror=alert(1)>' },
      title: 'Feedback report',
      subject: '<script>alert(1)</script>',
      lines: [['Scheme', '"quoted" & <b>bold</b>']],
      note: "O'Brien",
    })
    expect(html).not.toMatch(/<script|<img src=x|<b>/)
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')
    expect(html).toContain('&quot;quoted&quot; &amp; &lt;b&gt;bold&lt;/b&gt;')
    expect(html).toContain('O&#39;Brien')
    expect(footerTemplate('<i>x</i>')).toContain('&lt;i&gt;x&lt;/i&gt;')
    expect(headerTemplate(brand, 'a < b')).toContain('Acme &amp; Co')
    expect(escapeHtml(`&<>"'`)).toBe('&amp;&lt;&gt;&quot;&#39;')
  })

  test('the brand colours are used when they are hex, the defaults otherwise', () => {
    expect(coverHtml({ brand, title: 't', subject: 's', lines: [] })).toContain('background:#123456')
    const hostile = coverHtml({
      brand: { ...brand, primaryColor: 'red;background:url(http://x)', accentColor: 'expression(1)' },
      title: 't',
      subject: 's',
      lines: [],
    })
    expect(hostile).not.toContain('url(')
    expect(hostile).not.toContain('expression')
    expect(hostile).toContain('background:#1e3a8a')
  })

  test('the logo is an uploaded file by its id, and only a well-formed id', () => {
    const id = '0f8fad5b-d9cb-469f-a165-70867728950e'
    expect(coverHtml({ brand: { ...brand, logoFileId: id }, title: 't', subject: 's', lines: [] })).toContain(
      `src="/files/${id}"`,
    )
    expect(
      coverHtml({ brand: { ...brand, logoFileId: '../../etc' }, title: 't', subject: 's', lines: [] }),
    ).not.toContain('<img')
  })

  test('the footer numbers the pages through Chromium’s own fields', () => {
    expect(footerTemplate('Feedback report')).toMatch(
      /Page <span class="pageNumber"><\/span> of <span class="totalPages"><\/span>/,
    )
  })
})

describe('file names', () => {
  test('letters and digits only: accents folded, no path, never empty', () => {
    expect(fileSlug('Zoë Ölander')).toBe('zoe-olander')
    expect(fileSlug('../../etc/passwd')).toBe('etc-passwd')
    expect(fileSlug('李雷')).toBe('report')
    expect(fileSlug('a'.repeat(100))).toHaveLength(60)
  })

  test('a report’s file names the person and its short id', () => {
    expect(
      reportFileName({ subjectName: 'Erin Employee', responseId: '0f8fad5b-d9cb-469f-a165-70867728950e' }),
    ).toBe('feedback-report-erin-employee-0f8fad5b.pdf')
  })
})
