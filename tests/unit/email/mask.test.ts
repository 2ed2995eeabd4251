import { describe, expect, it } from 'vitest'
import { renderTemplate, DEFAULT_TEMPLATES, LINK_LABELS } from '#app/modules/email/templates'
import { CODE_MASK, maskActionCodes } from '#app/modules/email/mask'

const CODE = 'Zx9_long-Code0123456789abcdEF'

describe('maskActionCodes', () => {
  it('masks the code of a /verification link and keeps the rest readable', () => {
    const link = `http://localhost:3000/verification?mode=resetPassword&code=${CODE}`
    expect(maskActionCodes(`Open ${link} now.`)).toBe(
      `Open http://localhost:3000/verification?mode=resetPassword&code=${CODE_MASK} now.`,
    )
  })

  it('masks a code that comes first, before a fragment, or at the end of a line', () => {
    expect(maskActionCodes(`https://x.test/v?code=${CODE}&mode=invite`)).toBe(
      `https://x.test/v?code=${CODE_MASK}&mode=invite`,
    )
    expect(maskActionCodes(`https://x.test/v?mode=a&code=${CODE}#top`)).toBe(
      `https://x.test/v?mode=a&code=${CODE_MASK}#top`,
    )
    expect(maskActionCodes(`a\nhttps://x.test/v?code=${CODE}\nb`)).toBe(
      `a\nhttps://x.test/v?code=${CODE_MASK}\nb`,
    )
  })

  it('masks codes in HTML: &amp;-escaped, numeric entities, in href and in text', () => {
    const html = `<a href="http://h/verification?mode=invite&amp;code=${CODE}">http://h/verification?mode=invite&#38;code=${CODE}</a> <a href='/v?mode=x&#x26;code=${CODE}'>x</a>`
    const masked = maskActionCodes(html)
    expect(masked).not.toContain(CODE)
    expect(masked).toBe(
      `<a href="http://h/verification?mode=invite&amp;code=${CODE_MASK}">http://h/verification?mode=invite&#38;code=${CODE_MASK}</a> <a href='/v?mode=x&#x26;code=${CODE_MASK}'>x</a>`,
    )
  })

  it('masks a link nested, percent-encoded, inside another link', () => {
    const nested = `https://track.example/click?u=${encodeURIComponent(`http://h/verification?mode=activate&code=${CODE}`)}&id=7`
    const masked = maskActionCodes(nested)
    expect(masked).not.toContain(CODE)
    expect(masked).toContain(`%26code%3D${CODE_MASK}&id=7`)
  })

  it('masks the other usual one-time parameters, whatever their case', () => {
    for (const name of [
      'token',
      'oobCode',
      'access_token',
      'secret',
      'signature',
      'sig',
      'otp',
      'CODE',
      'Token',
    ]) {
      expect(maskActionCodes(`https://x.test/p?a=1&${name}=${CODE}&b=2`), name).toBe(
        `https://x.test/p?a=1&${name}=${CODE_MASK}&b=2`,
      )
    }
  })

  it('leaves everything else alone', () => {
    for (const text of [
      'Hello Ann, please respond by 30 June 2026.',
      'https://x.test/p?mode=invite&barcode=123&codes=4',
      'the code is on the card',
      'code=abc without a link',
      '',
    ])
      expect(maskActionCodes(text)).toBe(text)
    expect(maskActionCodes(null)).toBeNull()
    expect(maskActionCodes(undefined)).toBeUndefined()
  })

  it('masks every occurrence in a rendered e-mail, text and HTML, for every template', () => {
    for (const key of Object.keys(DEFAULT_TEMPLATES) as (keyof typeof DEFAULT_TEMPLATES)[]) {
      const link = `http://localhost:3000/verification?mode=invite&code=${CODE}`
      const rendered = renderTemplate(
        DEFAULT_TEMPLATES[key],
        { link, recipientName: 'Ann' },
        { linkLabel: LINK_LABELS[key] },
      )
      expect(rendered.html, key).toContain(CODE)
      expect(maskActionCodes(rendered.html), key).not.toContain(CODE)
      expect(maskActionCodes(rendered.text), key).not.toContain(CODE)
      expect(maskActionCodes(rendered.text), key).toContain(`/verification?mode=invite&code=${CODE_MASK}`)
    }
  })
})
