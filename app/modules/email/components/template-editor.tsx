import { getFormProps, getInputProps, getTextareaProps } from '@conform-to/react'
import { useEffect, useMemo, useRef, useState, type FormEvent, type ReactNode } from 'react'
import { Form, Link } from 'react-router'
import { resultFor, useConformForm, usePendingIntent, type IntentReply } from '#app/components/form-kit'
import { ErrorList, FormErrors } from '#app/components/forms'
import type { PageData } from '#app/lib/page-data'
import { Card } from '#app/components/card'
import { BODY_MAX, HTML_MAX, sampleValues, SUBJECT_MAX, templateSchema } from '../schemas'
import { codePlaceholders, linkLabelFor, renderTemplate, TEMPLATE_PLACEHOLDERS } from '../templates'
import type { loadTemplatePage } from '../template-page.server'
import { MessageParts } from './message-parts'
import { useEmailWords } from './use-email-words'

type EditorData = PageData<typeof loadTemplatePage>['editor']

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
  const { t, languageName: nameOf, owner } = useEmailWords()
  // What each placeholder is filled with, in an admin's words; one without words shows its name.
  const placeholderHelp = (name: string) => t(`placeholderHelp.${name}`, { defaultValue: name })
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
  const languageName = nameOf(editor.language)

  const preview = useMemo(
    () =>
      renderTemplate(
        { subject: draft.subject, body: draft.body, html: draft.html },
        sampleValues(editor.appUrl, editor.language),
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
          <h2 className="text-lg font-semibold">{t('editor.wording', { language: languageName })}</h2>
          <input type="hidden" name="language" value={editor.language} />
          {newVersion && editor.language !== 'en' ? (
            <p className="rounded-md border border-slate-200 bg-slate-50 p-3 text-sm text-slate-800">
              {editor.brand
                ? t('editor.noVersionBrand', { language: languageName, brand: editor.brand.name })
                : t('editor.noVersion', { language: languageName })}
            </p>
          ) : usesDefault ? (
            <p className="rounded-md border border-slate-200 bg-slate-50 p-3 text-sm text-slate-800">
              {t('editor.usesDefaultBefore', { brand: editor.brand!.name })}{' '}
              <strong>{t('editor.usesDefaultStrong')}</strong> {t('editor.usesDefaultAfter')}
            </p>
          ) : null}
          {editor.problems.length ? (
            <div className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950">
              <p className="font-semibold">{t('editor.attention')}</p>
              <ul className="ml-5 list-disc">
                {editor.problems.map((problem) => (
                  <li key={problem}>{problem}</li>
                ))}
              </ul>
              <p>{t('editor.attentionAfter')}</p>
            </div>
          ) : null}
          <FormErrors id={form.errorId} errors={form.errors} />
          <input type="hidden" name="intent" value="save" />
          <div className="flex flex-col gap-1">
            <label htmlFor={fields.subject.id} className="label">
              {t('editor.subject')}
            </label>
            <input
              {...getInputProps(fields.subject, { type: 'text' })}
              key={fields.subject.key}
              maxLength={SUBJECT_MAX}
              className="input"
            />
            <ErrorList id={fields.subject.errorId} errors={fields.subject.errors} />
          </div>
          <BodyField field={fields.body} label={t('editor.textBody')} rows={14} max={BODY_MAX}>
            {t('editor.textHelp', { link: '{{link}}' })}
          </BodyField>
          <BodyField field={fields.html} label={t('editor.htmlBody')} rows={10} max={HTML_MAX}>
            {t('editor.htmlHelp')}
            {codePlaceholders(editor.key).length
              ? ` ${t('editor.htmlCodeHelp', { link: '{{link}}', href: 'href="{{link}}"' })}`
              : null}
          </BodyField>
          <div>
            <button type="submit" className="btn btn-primary" disabled={saving}>
              {saving
                ? t('editor.saving')
                : newVersion && editor.language !== 'en'
                  ? t('editor.saveVersion', { language: languageName })
                  : usesDefault
                    ? t('editor.saveBrand', { owner: owner(editor.brand!.name) })
                    : t('editor.save')}
            </button>
          </div>
        </Form>

        <aside aria-labelledby="placeholders-title" className="card flex h-fit flex-col gap-3">
          <h2 id="placeholders-title" className="text-lg font-semibold">
            {t('editor.placeholders')}
          </h2>
          <p className="text-sm text-slate-700">{hydrated ? t('editor.insertHelp') : t('editor.typeHelp')}</p>
          <ul className="flex flex-col gap-2">
            {placeholders.map((name) => (
              <li key={name} className="flex flex-col gap-0.5">
                {hydrated ? (
                  <button
                    type="button"
                    className="btn btn-secondary justify-start self-start font-mono text-sm"
                    onClick={() => insert(name)}
                    aria-label={t('editor.insert', {
                      placeholder: `{{${name}}}`,
                      help: placeholderHelp(name),
                    })}
                  >
                    {`{{${name}}}`}
                  </button>
                ) : (
                  <code className="font-mono text-sm">{`{{${name}}}`}</code>
                )}
                <span className="text-xs text-slate-600">{placeholderHelp(name)}</span>
              </li>
            ))}
          </ul>
        </aside>
      </div>

      <Card id="preview-title" title={t('editor.previewTitle', { language: languageName })} className="gap-3">
        <p className="text-sm text-slate-700">
          {t('editor.previewUpdates')} <strong data-testid="preview-subject">{preview.subject}</strong>
        </p>
        <MessageParts
          htmlTitle={t('editor.previewHtmlTitle')}
          html={preview.html}
          text={preview.text}
          height="h-[32rem]"
          textTestId="preview-text"
        />
      </Card>

      <Card id="actions-title" title={t('editor.actions')}>
        <Form method="post" className="flex flex-col items-start gap-2">
          <input type="hidden" name="intent" value="test" />
          <input type="hidden" name="language" value={editor.language} />
          <FormErrors errors={test?.error?.[''] ?? undefined} />
          <p className="text-sm text-slate-700">
            {editor.brand ? t('editor.testHelpBrand', { brand: editor.brand.name }) : t('editor.testHelp')}
          </p>
          <button type="submit" className="btn btn-secondary" disabled={testing}>
            {testing ? t('editor.queueing') : t('editor.sendTest')}
          </button>
        </Form>
        {usesDefault && editor.language === 'en' ? (
          <Form method="post" className="flex flex-col items-start gap-2">
            <input type="hidden" name="intent" value="override" />
            <FormErrors errors={override?.error?.[''] ?? undefined} />
            <button type="submit" className="btn btn-secondary" disabled={overriding}>
              {overriding ? t('editor.creating') : t('editor.giveOwn', { brand: editor.brand!.name })}
            </button>
          </Form>
        ) : null}
        {canRestore ? (
          <Link to="?restore" className="btn btn-secondary self-start">
            {editor.brand ? t('editor.restoreBrand') : t('editor.restoreDefault')}
          </Link>
        ) : editor.language !== 'en' ? null : (
          <p className="text-sm text-slate-700">
            {editor.brand ? t('editor.brandUsesDefaultShort') : t('editor.defaultIsShipped')}
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
