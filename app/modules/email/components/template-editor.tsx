import { getFormProps, getInputProps, getTextareaProps } from '@conform-to/react'
import { useEffect, useMemo, useRef, useState, type FormEvent, type ReactNode } from 'react'
import { Form, Link } from 'react-router'
import { possessive } from '#app/lib/words'
import { resultFor, useConformForm, usePendingIntent, type IntentReply } from '#app/components/form-kit'
import { ErrorList, FormErrors } from '#app/components/forms'
import type { PageData } from '#app/lib/page-data'
import { Card } from '#app/components/card'
import { BODY_MAX, HTML_MAX, sampleValues, SUBJECT_MAX, templateSchema } from '../schemas'
import { codePlaceholders, linkLabelFor, renderTemplate, TEMPLATE_PLACEHOLDERS } from '../templates'
import { languageInfo } from '#app/modules/i18n/languages'
import type { loadTemplatePage } from '../template-page.server'
import { MessageParts } from './message-parts'

type EditorData = PageData<typeof loadTemplatePage>['editor']

/** What each placeholder is filled with, in an admin's words. */
const PLACEHOLDER_HELP: Record<string, string> = {
  recipientName: 'the reader’s name',
  brandName: 'the brand’s name',
  appUrl: 'the portal’s address',
  link: 'the reader’s personal link (a button in HTML)',
  employeeName: 'the employee the feedback is about',
  colleagueName: 'the colleague asked for feedback',
  schemeName: 'the programme’s name',
  dueDate: 'the programme’s closing date',
  inviterName: 'the administrator who sent the invitation',
}

type FieldName = 'subject' | 'body' | 'html'

/**
 * The template editor: subject, text body and optional HTML body, checked as the admin types with
 * the server's rules (unknown or misspelt placeholders are field errors); the placeholders this
 * e-mail offers beside it, insertable at the cursor; a live preview with sample values (HTML in a
 * sandboxed iframe without scripts, and the text part); send a test; restore the default.
 */
export function TemplateEditor({
  editor,
  actionData,
  canRestore,
}: {
  editor: EditorData
  actionData: IntentReply
  canRestore: boolean
}) {
  const start = editor.own ?? editor.fallback
  const schema = useMemo(() => templateSchema(editor.key), [editor.key])
  const [form, fields] = useConformForm(schema, {
    id: 'template-form',
    lastResult: resultFor(actionData, 'save'),
    defaultValue: { subject: start.subject, body: start.body, html: start.html ?? '' },
    // A misspelt placeholder is pointed out when the field is left, not only on save.
    shouldValidate: 'onBlur',
  })
  const [draft, setDraft] = useState({ subject: start.subject, body: start.body, html: start.html ?? '' })
  const [hydrated, setHydrated] = useState(false)
  useEffect(() => setHydrated(true), [])
  const lastField = useRef<FieldName>('body')
  const saving = usePendingIntent('save')
  const testing = usePendingIntent('test')
  const overriding = usePendingIntent('override')
  const usesDefault = Boolean(editor.brand && !editor.own)
  // A language this e-mail has no version in yet (ADR 053): saving creates it.
  const newVersion = !editor.own
  const languageName = languageInfo(editor.language).name

  const preview = useMemo(
    () =>
      renderTemplate(
        { subject: draft.subject, body: draft.body, html: draft.html },
        sampleValues(editor.appUrl),
        {
          brand: editor.brand,
          linkLabel: linkLabelFor(editor.key, editor.language),
          language: editor.language,
        },
      ),
    [draft, editor.appUrl, editor.brand, editor.key, editor.language],
  )

  const formElement = () => document.getElementById(form.id) as HTMLFormElement | null
  const readDraft = (event: FormEvent<HTMLFormElement>) => {
    const data = new FormData(event.currentTarget)
    setDraft({
      subject: String(data.get('subject') ?? ''),
      body: String(data.get('body') ?? ''),
      html: String(data.get('html') ?? ''),
    })
  }
  const insert = (name: string) => {
    const control = formElement()?.elements.namedItem(lastField.current)
    if (!(control instanceof HTMLInputElement || control instanceof HTMLTextAreaElement)) return
    const token = `{{${name}}}`
    const from = control.selectionStart ?? control.value.length
    const to = control.selectionEnd ?? from
    control.focus()
    control.setRangeText(token, from, to, 'end')
    // Conform and the preview listen for input events, as if it had been typed.
    control.dispatchEvent(new Event('input', { bubbles: true }))
  }

  const test = resultFor(actionData, 'test')
  const override = resultFor(actionData, 'override')
  const placeholders = TEMPLATE_PLACEHOLDERS[editor.key]

  return (
    <div className="flex flex-col gap-6">
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_18rem]">
        <Form
          method="post"
          className="card flex min-w-0 flex-col gap-4"
          {...getFormProps(form)}
          onInput={readDraft}
          onFocus={(event) => {
            const name = (event.target as unknown as { name?: string }).name
            if (name === 'subject' || name === 'body' || name === 'html') lastField.current = name
          }}
        >
          <h2 className="text-lg font-semibold">Wording · {languageName}</h2>
          <input type="hidden" name="language" value={editor.language} />
          {newVersion && editor.language !== 'en' ? (
            <p className="rounded-md border border-slate-200 bg-slate-50 p-3 text-sm text-slate-800">
              There is no {languageName} version {editor.brand ? `for ${editor.brand.name} ` : ''}yet: readers
              in {languageName} get the wording shown here. Saving creates the {languageName} version with
              your changes.
            </p>
          ) : usesDefault ? (
            <p className="rounded-md border border-slate-200 bg-slate-50 p-3 text-sm text-slate-800">
              {editor.brand!.name} <strong>uses the default</strong> wording, shown here. Saving creates its
              own copy with your changes; other brands keep the default.
            </p>
          ) : null}
          {editor.problems.length ? (
            <div className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950">
              <p className="font-semibold">This wording needs attention</p>
              <ul className="ml-5 list-disc">
                {editor.problems.map((problem) => (
                  <li key={problem}>{problem}</li>
                ))}
              </ul>
              <p>Until it is changed, every message leaves out what breaks these rules.</p>
            </div>
          ) : null}
          <FormErrors id={form.errorId} errors={form.errors} />
          <input type="hidden" name="intent" value="save" />
          <div className="flex flex-col gap-1">
            <label htmlFor={fields.subject.id} className="label">
              Subject
            </label>
            <input
              {...getInputProps(fields.subject, { type: 'text' })}
              key={fields.subject.key}
              maxLength={SUBJECT_MAX}
              className="input"
            />
            <ErrorList id={fields.subject.errorId} errors={fields.subject.errors} />
          </div>
          <BodyField field={fields.body} label="Text body" rows={14} max={BODY_MAX}>
            The plain-text part. Separate paragraphs with a blank line. Without an HTML body, the HTML part is
            made from this text, with {'{{link}}'} on its own line as a button.
          </BodyField>
          <BodyField field={fields.html} label="HTML body (optional)" rows={10} max={HTML_MAX}>
            Leave blank to make it from the text body. Allowed: paragraphs, headings, lists, links (https,
            mailto), bold and italic, simple tables, images from this portal (such as a brand logo) or inline,
            and a few inline styles (colours, alignment, sizes). Anything else, such as scripts, forms or
            event handlers, is removed when you save. Placeholder values are always inserted as text.
            {codePlaceholders(editor.key).length
              ? ' {{link}} carries the reader’s one-time code, so it may stand only as a link’s whole address (href="{{link}}") or as text.'
              : null}
          </BodyField>
          <div>
            <button type="submit" className="btn btn-primary" disabled={saving}>
              {saving
                ? 'Saving…'
                : newVersion && editor.language !== 'en'
                  ? `Save as the ${languageName} version`
                  : usesDefault
                    ? `Save as ${possessive(editor.brand!.name)} own`
                    : 'Save'}
            </button>
          </div>
        </Form>

        <aside aria-labelledby="placeholders-title" className="card flex h-fit flex-col gap-3">
          <h2 id="placeholders-title" className="text-lg font-semibold">
            Placeholders
          </h2>
          <p className="text-sm text-slate-700">
            {hydrated
              ? 'Insert one where the cursor is, in the field you last worked in.'
              : 'Type one of these, braces included, where its value should go.'}
          </p>
          <ul className="flex flex-col gap-2">
            {placeholders.map((name) => (
              <li key={name} className="flex flex-col gap-0.5">
                {hydrated ? (
                  <button
                    type="button"
                    className="btn btn-secondary justify-start self-start font-mono text-sm"
                    onClick={() => insert(name)}
                    aria-label={`Insert {{${name}}}: ${PLACEHOLDER_HELP[name] ?? name}`}
                  >
                    {`{{${name}}}`}
                  </button>
                ) : (
                  <code className="font-mono text-sm">{`{{${name}}}`}</code>
                )}
                <span className="text-xs text-slate-600">{PLACEHOLDER_HELP[name] ?? name}</span>
              </li>
            ))}
          </ul>
        </aside>
      </div>

      <Card id="preview-title" title={`Preview in ${languageName} with sample values`} className="gap-3">
        <p className="text-sm text-slate-700">
          Updates as you type. Subject: <strong data-testid="preview-subject">{preview.subject}</strong>
        </p>
        <MessageParts
          htmlTitle="HTML part of the preview"
          html={preview.html}
          text={preview.text}
          height="h-[32rem]"
          textTestId="preview-text"
        />
      </Card>

      <Card id="actions-title" title="Try it out and undo">
        <Form method="post" className="flex flex-col items-start gap-2">
          <input type="hidden" name="intent" value="test" />
          <input type="hidden" name="language" value={editor.language} />
          <FormErrors errors={test?.error?.[''] ?? undefined} />
          <p className="text-sm text-slate-700">
            Sends the saved wording{editor.brand ? ` as ${editor.brand.name} sends it` : ''}, filled with
            sample values, to your own address through the outbox.
          </p>
          <button type="submit" className="btn btn-secondary" disabled={testing}>
            {testing ? 'Queueing…' : 'Send a test to me'}
          </button>
        </Form>
        {usesDefault && editor.language === 'en' ? (
          <Form method="post" className="flex flex-col items-start gap-2">
            <input type="hidden" name="intent" value="override" />
            <FormErrors errors={override?.error?.[''] ?? undefined} />
            <button type="submit" className="btn btn-secondary" disabled={overriding}>
              {overriding ? 'Creating…' : `Give ${editor.brand!.name} its own copy of the default`}
            </button>
          </Form>
        ) : null}
        {canRestore ? (
          <Link to="?restore" className="btn btn-secondary self-start">
            {editor.brand ? 'Restore the default…' : 'Restore the shipped wording…'}
          </Link>
        ) : editor.language !== 'en' ? null : (
          <p className="text-sm text-slate-700">
            {editor.brand
              ? 'This brand uses the default wording.'
              : 'The default is the wording Panorama ships with.'}
          </p>
        )}
      </Card>
    </div>
  )
}

/** A body of the template: a labelled textarea with its help (`<name>-help`) and its errors. */
function BodyField({
  field,
  label,
  rows,
  max,
  children,
}: {
  field: Parameters<typeof getTextareaProps>[0]
  label: string
  rows: number
  max: number
  children: ReactNode
}) {
  const helpId = `${field.name}-help`
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={field.id} className="label">
        {label}
      </label>
      <textarea
        {...getTextareaProps(field, { ariaDescribedBy: helpId })}
        key={field.key}
        rows={rows}
        maxLength={max}
        className="input font-mono text-sm"
      />
      <p id={helpId} className="text-sm text-slate-600">
        {children}
      </p>
      <ErrorList id={field.errorId} errors={field.errors} />
    </div>
  )
}
