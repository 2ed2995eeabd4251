import { getFormProps, getSelectProps, getTextareaProps } from '@conform-to/react'
import { lazy, Suspense, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Form, Link } from 'react-router'
import {
  formErrorsOf,
  resultFor,
  useConformForm,
  usePendingIntent,
  type IntentReply,
} from '#app/components/form-kit'
import { FormErrors, SelectField, useFormMessage } from '#app/components/forms'
import { ColleagueFields, useRelationshipOptions } from '#app/modules/invite/components/colleague-fields'
import { GroupOutlook } from '#app/modules/invite/components/group-outlook'
import type { NominationPageData } from '#app/modules/nomination/nomination-page.server'
import { AddNomineeSchema, COMMENT_MAX, PasteSchema, SendBackSchema } from '#app/modules/nomination/schemas'

type Ready = Extract<NominationPageData, { state: 'ready' }>

/** The directory's type-ahead, fetched when the add form shows (outside the page's JS budget). */
const DirectorySearch = lazy(() => import('./directory-search'))
type PasteReply = { paste?: { added: number; problems: { line: string; message: string }[]; text: string } }

/** The list of raters page (issue 18 §3): build, send for approval, approve or send back. */
export function NominationPage({
  loaderData,
  actionData,
}: {
  loaderData: NominationPageData
  actionData: (IntentReply & PasteReply) | undefined
}) {
  const { t } = useTranslation('nomination')
  const say = useFormMessage()
  if (loaderData.state === 'pick-employee')
    return (
      <section aria-labelledby="page-title" className="flex max-w-3xl flex-col gap-4">
        <h1 id="page-title" className="text-2xl font-bold tracking-tight">
          {t('pick.title')}
        </h1>
        <div className="card flex flex-col gap-3">
          <h2 className="text-lg font-semibold">{t('pick.choose')}</h2>
          <p className="text-slate-700">{loaderData.explanation}</p>
          <p>
            <Link className="btn btn-primary" to="/admin/employee-management">
              {t('pick.go')}
            </Link>
          </p>
        </div>
      </section>
    )
  const { standing, schemes, scheme, schemeHrefs, words } = loaderData
  const own = standing === 'employee'
  // Messages of forms shown above; and of the add forms when they are no longer shown (the list
  // filled up or changed state since the page was loaded).
  const stepIntents = ['submit', 'withdraw', 'approve', 'remove']
  if (!loaderData.can?.edit) stepIntents.push('add', 'paste')
  if (!loaderData.can?.decide) stepIntents.push('send-back')
  // (A paste that filled the list: its refused lines here, since the paste form is gone.)
  const stepErrors =
    actionData && stepIntents.includes(actionData.intent)
      ? actionData.paste
        ? actionData.paste.problems.map((p) => `${p.line}: ${say(p.message)}`)
        : (formErrorsOf(actionData.result) ?? Object.values(actionData.result.error ?? {}).flat())
      : undefined
  return (
    <section aria-labelledby="page-title" className="flex max-w-5xl flex-col gap-8">
      <div className="flex max-w-3xl flex-col gap-3">
        <h1 id="page-title" className="text-2xl font-bold tracking-tight">
          {words.title}
        </h1>
        {words.actingFor ? (
          <p className="rounded-md border border-indigo-200 bg-indigo-50 p-3 text-sm text-indigo-950">
            {words.actingFor}
          </p>
        ) : null}
        <p className="text-slate-700">{words.intro}</p>
      </div>

      {!scheme ? (
        <div className="card flex flex-col gap-2">
          <FormErrors errors={stepErrors} />
          <h2 className="text-lg font-semibold">{t('noList.title')}</h2>
          <p className="text-slate-700">{words.none}</p>
          {own ? (
            <p>
              <Link className="link" to="/user/colleague-invite">
                {t('noList.invitations')}
              </Link>
            </p>
          ) : null}
        </div>
      ) : (
        <>
          {schemes.length > 1 ? (
            <nav aria-label={t('programmes')} className="flex flex-wrap gap-2">
              {schemes.map((s) => (
                <Link
                  key={s.id}
                  to={schemeHrefs[s.id]!}
                  aria-current={s.id === scheme.id ? 'page' : undefined}
                  className={`rounded-md border px-3 py-2 text-sm ${
                    s.id === scheme.id
                      ? 'border-indigo-700 bg-indigo-50 text-indigo-950'
                      : 'border-slate-300 bg-white text-slate-800 hover:bg-slate-50'
                  }`}
                >
                  <span className="font-semibold">{s.name}</span> · {s.companyName}
                </Link>
              ))}
            </nav>
          ) : null}
          <ListStatus data={loaderData} />
          {own && scheme.managerSeesReportNote ? (
            <p
              role="note"
              className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950"
            >
              {scheme.managerSeesReportNote}
            </p>
          ) : null}
          <FormErrors errors={stepErrors} />
          <NomineeTable data={loaderData} />
          {loaderData.outlook ? <GroupOutlook outlook={loaderData.outlook} /> : null}
          {/* The approver decides first (adding is the exception); the employee adds, then sends. */}
          {loaderData.can?.decide ? <Steps data={loaderData} actionData={actionData} /> : null}
          {loaderData.can?.edit ? <AddForms data={loaderData} actionData={actionData} /> : null}
          {loaderData.can?.decide ? null : <Steps data={loaderData} actionData={actionData} />}
          <Invited data={loaderData} />
        </>
      )}
    </section>
  )
}

function ListStatus({ data }: { data: Ready }) {
  const { t } = useTranslation('nomination')
  const scheme = data.scheme!
  const status = data.statusNote!
  return (
    <section aria-labelledby="status-title" className={`card flex flex-col gap-2 border ${status.tone}`}>
      <h2 id="status-title" className="text-lg font-semibold">
        {scheme.name}
      </h2>
      {status.lines.map((line) => (
        <p key={line}>{line}</p>
      ))}
      {scheme.comment ? (
        <figure className="rounded-md border border-red-200 bg-white p-3 text-slate-900">
          <figcaption className="text-sm font-medium">
            {t('comment', { name: scheme.approverName })}
          </figcaption>
          <blockquote className="whitespace-pre-line">{scheme.comment}</blockquote>
        </figure>
      ) : null}
    </section>
  )
}

function NomineeTable({ data }: { data: Ready }) {
  const { t } = useTranslation('nomination')
  const { t: tHome } = useTranslation('home')
  const removing = usePendingIntent('remove')
  const scheme = data.scheme!
  return (
    <section aria-labelledby="list-title" className="flex flex-col gap-3">
      <h2 id="list-title" className="text-lg font-semibold">
        {t('onList.title', { count: data.nominees.length })}
      </h2>
      {data.nominees.length === 0 ? (
        <p className="text-slate-700">
          {data.invitations.length ? t('onList.nobodyWaiting') : t('onList.nobodyYet')}
        </p>
      ) : (
        <ul className="flex flex-col divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white">
          {data.nominees.map((n) => (
            <li key={n.id} className="flex flex-wrap items-center justify-between gap-2 px-4 py-3">
              <div className="flex min-w-0 flex-col">
                <span className="font-medium break-words">{n.name}</span>
                <span className="text-sm break-words text-slate-700">
                  {n.email} · {tHome(`relationship.${n.relationship}`)}
                  {n.addedByApprover ? t('onList.byApprover') : ''}
                </span>
              </div>
              {data.can?.remove ? (
                <Form method="post" action={data.action} preventScrollReset>
                  <input type="hidden" name="intent" value="remove" />
                  <input type="hidden" name="schemeId" value={scheme.id} />
                  <input type="hidden" name="nomineeId" value={n.id} />
                  <button type="submit" className="btn btn-secondary" disabled={removing}>
                    {t('onList.remove')}
                    <span className="sr-only">{t('onList.removeWho', { name: n.name })}</span>
                  </button>
                </Form>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}

function Steps({ data, actionData }: { data: Ready; actionData: IntentReply | undefined }) {
  const { t } = useTranslation('nomination')
  const say = useFormMessage()
  const scheme = data.scheme!
  const can = data.can!
  const submitting = usePendingIntent('submit')
  const approving = usePendingIntent('approve')
  const sendingBack = usePendingIntent('send-back')
  const [form, fields] = useConformForm(SendBackSchema, {
    id: 'send-back',
    lastResult: resultFor(actionData, 'send-back'),
  })
  if (!can.submit && !can.withdraw && !can.decide) return null
  return (
    <section aria-labelledby="steps-title" className="card flex flex-col gap-4">
      <h2 id="steps-title" className="text-lg font-semibold">
        {can.decide ? t('steps.decision') : t('steps.send')}
      </h2>
      {can.submit ? (
        <Form method="post" action={data.action} className="flex flex-col gap-2">
          <input type="hidden" name="intent" value="submit" />
          <input type="hidden" name="schemeId" value={scheme.id} />
          <p className="text-sm text-slate-700">{data.words.submit}</p>
          <div>
            <button type="submit" className="btn btn-primary" disabled={submitting}>
              {submitting ? t('steps.sending') : t('steps.submit')}
            </button>
          </div>
        </Form>
      ) : null}
      {can.decide ? (
        <>
          <Form method="post" action={data.action} className="flex flex-col gap-2">
            <input type="hidden" name="intent" value="approve" />
            <input type="hidden" name="schemeId" value={scheme.id} />
            <p className="text-sm text-slate-700">{data.words.approve}</p>
            <div>
              <button type="submit" className="btn btn-primary" disabled={approving || !data.nominees.length}>
                {approving ? t('steps.approving') : t('steps.approve')}
              </button>
            </div>
          </Form>
          <Form method="post" action={data.action} className="flex flex-col gap-3" {...getFormProps(form)}>
            <input type="hidden" name="intent" value="send-back" />
            <input type="hidden" name="schemeId" value={scheme.id} />
            <FormErrors id={form.errorId} errors={form.errors} />
            <div className="flex flex-col gap-1">
              <label htmlFor={fields.comment.id} className="font-medium">
                {t('steps.sendBackLabel')}
              </label>
              <textarea
                {...getTextareaProps(fields.comment)}
                className="input min-h-24"
                maxLength={COMMENT_MAX}
                aria-describedby={fields.comment.errors ? fields.comment.errorId : undefined}
              />
              {fields.comment.errors ? (
                <p id={fields.comment.errorId} className="text-sm text-red-800">
                  {say(fields.comment.errors[0]!)}
                </p>
              ) : null}
            </div>
            <div>
              <button type="submit" className="btn btn-secondary" disabled={sendingBack}>
                {sendingBack ? t('steps.sending') : t('steps.sendBack')}
              </button>
            </div>
          </Form>
        </>
      ) : null}
      {can.withdraw ? (
        <Form method="post" action={data.action} className="flex flex-col gap-2">
          <input type="hidden" name="intent" value="withdraw" />
          <input type="hidden" name="schemeId" value={scheme.id} />
          <p className="text-sm text-slate-700">{t('steps.withdrawText')}</p>
          <div>
            <button type="submit" className="btn btn-secondary">
              {t('steps.withdraw')}
            </button>
          </div>
        </Form>
      ) : null}
    </section>
  )
}

function AddForms({ data, actionData }: { data: Ready; actionData: (IntentReply & PasteReply) | undefined }) {
  const { t } = useTranslation('nomination')
  const say = useFormMessage()
  const relationshipOptions = useRelationshipOptions()
  const scheme = data.scheme!
  const adding = usePendingIntent('add')
  const pasting = usePendingIntent('paste')
  const [form, fields] = useConformForm(AddNomineeSchema, {
    id: 'add-nominee',
    lastResult: resultFor(actionData, 'add'),
  })
  const [picked, setPicked] = useState<{ id: string; name: string } | null>(null)
  const [pasteForm, pasteFields] = useConformForm(PasteSchema, {
    id: 'paste-nominees',
    lastResult: actionData?.paste ? undefined : resultFor(actionData, 'paste'),
  })
  return (
    <section aria-labelledby="add-title" className="card flex flex-col gap-4">
      <h2 id="add-title" className="text-lg font-semibold">
        {t('add.title')}
      </h2>
      <p className="text-sm text-slate-700">{data.words.add}</p>
      {data.suggestion ? (
        <Form
          method="post"
          action={data.action}
          className="flex flex-wrap items-center gap-3 rounded-md border border-indigo-200 bg-indigo-50 p-3 text-sm text-indigo-950"
        >
          <input type="hidden" name="intent" value="add" />
          <input type="hidden" name="schemeId" value={scheme.id} />
          <input type="hidden" name="personId" value={data.suggestion.id} />
          <input type="hidden" name="name" value={data.suggestion.name} />
          <input type="hidden" name="relationship" value="manager" />
          <span>{data.suggestion.text}</span>
          <button type="submit" className="btn btn-secondary" disabled={adding}>
            {data.suggestion.button}
          </button>
        </Form>
      ) : null}
      <Suspense fallback={null}>
        <DirectorySearch employeeId={data.employee.id} onPick={setPicked} label={t('directory.label')} />
      </Suspense>
      {picked ? (
        <Form
          method="post"
          action={data.action}
          className="flex flex-wrap items-end gap-3 rounded-md border border-slate-200 p-3"
          onSubmit={() => setPicked(null)}
        >
          <input type="hidden" name="intent" value="add" />
          <input type="hidden" name="schemeId" value={scheme.id} />
          <input type="hidden" name="personId" value={picked.id} />
          <input type="hidden" name="name" value={picked.name} />
          <strong className="self-center">{picked.name}</strong>
          <label className="flex flex-col gap-1 text-sm">
            {t('add.relationship')}
            <select name="relationship" className="input" required defaultValue="">
              <option value="">{t('add.choose')}</option>
              {relationshipOptions.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" className="btn btn-primary" disabled={adding}>
            {t('add.submit')}
          </button>
        </Form>
      ) : null}
      <Form method="post" action={data.action} className="flex flex-col gap-4" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="add" />
        <input type="hidden" name="schemeId" value={scheme.id} />
        <FormErrors id={form.errorId} errors={form.errors} />
        <ColleagueFields name={fields.name} email={fields.email} relationship={fields.relationship} />
        <div>
          <button type="submit" className="btn btn-primary" disabled={adding}>
            {adding ? t('add.adding') : t('add.submit')}
          </button>
        </div>
      </Form>
      <details className="rounded-md border border-slate-200 p-3" open={Boolean(actionData?.paste)}>
        <summary className="cursor-pointer font-medium">{t('paste.summary')}</summary>
        <Form
          method="post"
          action={data.action}
          className="mt-3 flex flex-col gap-3"
          {...getFormProps(pasteForm)}
          key={actionData?.paste?.text ?? 'paste'}
        >
          <input type="hidden" name="intent" value="paste" />
          <input type="hidden" name="schemeId" value={scheme.id} />
          <FormErrors id={pasteForm.errorId} errors={pasteForm.errors} />
          {actionData?.paste ? (
            <div
              role="status"
              className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950"
            >
              <p>{t('paste.problems', { added: actionData.paste.added })}</p>
              <ul className="mt-1 list-disc pl-5">
                {actionData.paste.problems.map((p) => (
                  <li key={p.line}>
                    <strong className="break-all">{p.line}</strong>: {say(p.message)}
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
          <div className="flex flex-col gap-1">
            <label htmlFor={pasteFields.text.id} className="font-medium">
              {t('paste.label')}
            </label>
            <p id={`${pasteFields.text.id}-help`} className="text-sm text-slate-700">
              {t('paste.help')}
            </p>
            <textarea
              {...getTextareaProps(pasteFields.text)}
              // The refused lines, left in the box (given here, not as Conform's default value: Conform keeps
              // the value it first rendered, and the reply comes after hydration; the form's key remounts it).
              defaultValue={actionData?.paste?.text}
              className="input min-h-28 font-mono text-sm"
              aria-describedby={`${pasteFields.text.id}-help${pasteFields.text.errors ? ` ${pasteFields.text.errorId}` : ''}`}
            />
            {pasteFields.text.errors ? (
              <p id={pasteFields.text.errorId} className="text-sm text-red-800">
                {say(pasteFields.text.errors[0]!)}
              </p>
            ) : null}
          </div>
          <SelectField
            label={t('paste.relationship')}
            className="flex flex-col gap-1 sm:max-w-xs"
            selectProps={getSelectProps(pasteFields.relationship)}
            options={relationshipOptions}
            placeholder={t('add.choose')}
            errors={pasteFields.relationship.errors}
          />
          <div>
            <button type="submit" className="btn btn-secondary" disabled={pasting}>
              {pasting ? t('paste.checking') : t('paste.submit')}
            </button>
          </div>
        </Form>
      </details>
    </section>
  )
}

function Invited({ data }: { data: Ready }) {
  const { t } = useTranslation('nomination')
  const { t: tHome } = useTranslation('home')
  const { t: tInvite } = useTranslation('invite')
  if (!data.invitations.length) return null
  const own = data.standing === 'employee'
  return (
    <section aria-labelledby="invited-title" className="flex flex-col gap-3">
      <h2 id="invited-title" className="text-lg font-semibold">
        {t('invited.title', { count: data.invitations.length })}
      </h2>
      <ul className="flex flex-col divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white">
        {data.invitations.map((i) => (
          <li key={i.id} className="flex flex-wrap items-center justify-between gap-2 px-4 py-3">
            <span className="min-w-0 break-words">
              <span className="font-medium">{i.name}</span>{' '}
              <span className="text-sm text-slate-700">· {tHome(`relationship.${i.relationship}`)}</span>
            </span>
            <span className="rounded-full border border-slate-300 bg-slate-50 px-2 py-0.5 text-xs font-semibold">
              {i.status === 'revoked' ? tInvite('list.revoked') : tHome(`inviteStatus.${i.status}`)}
            </span>
          </li>
        ))}
      </ul>
      {data.standing !== 'manager' ? (
        <p className="text-sm">
          <Link
            className="link"
            to={`/user/colleague-invite?scheme=${data.scheme!.id}${own ? '' : `&employee=${data.employee.id}`}`}
          >
            {t('invited.link')}
          </Link>
        </p>
      ) : null}
    </section>
  )
}
