import { decodeEntities } from '#tests/integration/auth/helpers'

/**
 * What a page offers to post, read from its server-rendered HTML the way a browser without
 * JavaScript would: each `<form method="post">` with its fields, their current values, the values
 * a choice can take, and its submit buttons. The fuzzer starts from these, so a form added to a
 * page later is fuzzed without anyone listing it.
 */
export type FormTemplate = {
  /** The form's action (path and query), or null when it posts to the page's own address. */
  action: string | null
  multipart: boolean
  /** The values a browser would post as the page stands (checked boxes, selected options, texts). */
  fields: Array<[string, string]>
  /** Every value each field can take on the page (radios, checkboxes, options). */
  choices: Record<string, string[]>
  /** Names of file inputs. */
  files: string[]
  /** Submit buttons that carry a name: each posts the form with its own name and value. */
  submitters: Array<[string, string]>
}

function attributes(tag: string): Record<string, string> {
  const out: Record<string, string> = {}
  for (const m of tag.matchAll(/([\w:-]+)(?:\s*=\s*"([^"]*)")?/g)) {
    out[m[1]!.toLowerCase()] = decodeEntities(m[2] ?? '')
  }
  return out
}

const add = (record: Record<string, string[]>, name: string, value: string) => {
  const list = (record[name] ??= [])
  if (!list.includes(value)) list.push(value)
}

export function formsIn(html: string): FormTemplate[] {
  const forms: FormTemplate[] = []
  for (const match of html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/g)) {
    const form = attributes(match[1]!)
    if ((form.method ?? 'get').toLowerCase() !== 'post') continue
    const body = match[2]!
    const template: FormTemplate = {
      action: form.action || null,
      multipart: (form.enctype ?? '').includes('multipart'),
      fields: [],
      // No prototype: a field may be called "__proto__".
      choices: Object.create(null) as Record<string, string[]>,
      files: [],
      submitters: [],
    }
    for (const m of body.matchAll(/<input\b([^>]*)>/g)) {
      const a = attributes(m[1]!)
      if (!a.name) continue
      const type = (a.type ?? 'text').toLowerCase()
      if (type === 'submit' || type === 'image') template.submitters.push([a.name, a.value ?? ''])
      else if (type === 'file') template.files.push(a.name)
      else if (type === 'radio' || type === 'checkbox') {
        add(template.choices, a.name, a.value ?? 'on')
        if ('checked' in a) template.fields.push([a.name, a.value ?? 'on'])
      } else template.fields.push([a.name, a.value ?? ''])
    }
    for (const m of body.matchAll(/<textarea\b([^>]*)>([\s\S]*?)<\/textarea>/g)) {
      const a = attributes(m[1]!)
      if (a.name) template.fields.push([a.name, decodeEntities(m[2]!)])
    }
    for (const m of body.matchAll(/<select\b([^>]*)>([\s\S]*?)<\/select>/g)) {
      const a = attributes(m[1]!)
      if (!a.name) continue
      let selected: string | undefined
      for (const o of m[2]!.matchAll(/<option\b([^>]*)>([\s\S]*?)<\/option>/g)) {
        const oa = attributes(o[1]!)
        const value = oa.value ?? decodeEntities(o[2]!)
        add(template.choices, a.name, value)
        if ('selected' in oa || selected === undefined) selected = value
      }
      if (selected !== undefined) template.fields.push([a.name, selected])
    }
    // A choice nobody has made yet still belongs to the form: left empty, for the fuzzer to fill.
    for (const name of Object.keys(template.choices))
      if (!template.fields.some(([k]) => k === name)) template.fields.push([name, ''])
    for (const m of body.matchAll(/<button\b([^>]*)>/g)) {
      const a = attributes(m[1]!)
      if (a.name && (a.type ?? 'submit') === 'submit') template.submitters.push([a.name, a.value ?? ''])
    }
    forms.push(template)
  }
  return forms
}

/**
 * Addresses of the same page with a query (an edit, a confirmation, another page of a list): the
 * links in the page, and what its GET forms would ask for with each of their choices.
 */
export function sameRouteLinks(html: string, pathname: string): string[] {
  const found = new Set<string>()
  for (const m of html.matchAll(/href="([^"]+)"/g)) {
    const href = decodeEntities(m[1]!)
    if (href.startsWith(`${pathname}?`)) found.add(href)
  }
  for (const match of html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/g)) {
    const form = attributes(match[1]!)
    if ((form.method ?? 'get').toLowerCase() !== 'get') continue
    if (form.action && new URL(form.action, 'http://x').pathname !== pathname) continue
    for (const sel of match[2]!.matchAll(/<select\b([^>]*)>([\s\S]*?)<\/select>/g)) {
      const name = attributes(sel[1]!).name
      if (!name) continue
      for (const o of sel[2]!.matchAll(/<option\b([^>]*)>/g)) {
        const value = attributes(o[1]!).value
        if (value) found.add(`${pathname}?${new URLSearchParams({ [name]: value })}`)
      }
    }
  }
  return [...found]
}
