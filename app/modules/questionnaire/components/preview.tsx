import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { fillName } from '#app/modules/assignment/answer-schemas'
import { AnsweringTitle } from '#app/modules/assignment/components/answering-title'
import { QuestionField } from '#app/modules/assignment/components/question-fields'
import type { ViewQuestion } from '#app/modules/assignment/answering-view.server'
import type { BuilderData } from '../builder-page.server'
import { languageName } from './words'

/**
 * The questionnaire as respondents will see it (`?preview=self|colleague`): the answering page's
 * own question component, every section in order, with the colleague wording's {{name}} filled
 * with a sample name. Read-only: the fields are disabled and there is no form to post.
 */
export function QuestionnairePreview({ data }: { data: BuilderData }) {
  const { preview, previewName, previewLanguage } = data
  const { t } = useTranslation('questionnaires')
  // In a language (ADR 051): every text as its readers see it, the source where untranslated.
  const qn = data.previewed ?? data.questionnaire
  const self = preview === 'self'
  const here = `/admin/questionnaire-management/${qn.id}`
  const inLanguage = previewLanguage ? `&language=${previewLanguage}` : ''
  let number = 0
  return (
    <section aria-labelledby="page-title" className="flex max-w-3xl flex-col gap-6">
      <div className="flex flex-col gap-2">
        <p className="text-sm font-medium text-slate-600">
          {self ? t('preview.self') : t('preview.colleague', { name: previewName })} ·{' '}
          {t('preview.version', { version: qn.version })}
          {previewLanguage
            ? ` · ${t('preview.inLanguage', { language: languageName(t, previewLanguage) })}`
            : ''}
        </p>
        <AnsweringTitle title={qn.title} subjectName={self ? null : previewName} />
        <nav aria-label={t('preview.label')} className="flex flex-wrap gap-3">
          <Link
            className="btn btn-secondary"
            to={previewLanguage ? `${here}?language=${previewLanguage}` : here}
          >
            ← {t('translation.back')}
          </Link>
          <Link
            className="btn btn-secondary"
            to={`${here}?preview=${self ? 'colleague' : 'self'}${inLanguage}`}
          >
            {self ? t('builder.previewColleague') : t('builder.previewSelf')}
          </Link>
        </nav>
      </div>
      {qn.intro ? <p className="card whitespace-pre-line text-slate-800">{qn.intro}</p> : null}
      {qn.sections.length ? null : <p className="card">{t('preview.empty')}</p>}
      {qn.sections.map((section, s) => (
        <fieldset key={section.id} disabled className="card flex flex-col gap-8">
          <legend className="sr-only">
            {t('preview.sectionOf', { number: s + 1, total: qn.sections.length })}: {section.title}
          </legend>
          <div className="flex flex-col gap-1">
            <p className="text-sm text-slate-700">
              {t('preview.sectionOf', { number: s + 1, total: qn.sections.length })}
            </p>
            <h2 className="text-xl font-semibold">{section.title}</h2>
          </div>
          {section.questions.length ? null : <p className="text-slate-700">{t('sections.noQuestions')}</p>}
          {section.questions.map((q) => {
            number++
            const view: ViewQuestion = {
              id: q.id,
              kind: q.kind,
              text: self ? q.text : fillName(q.raterText, previewName),
              required: q.required,
              options: {
                // As on the answering page: a scale shows its labels read, a choice keeps its source
                // label as the value and shows the label read (ADR 051).
                labels:
                  q.kind === 'scale'
                    ? q.options.labels
                    : data.questionnaire.sections[s]?.questions.find((x) => x.id === q.id)?.options.labels,
                ...(q.kind === 'scale' ? {} : { displayLabels: q.options.labels }),
                min: q.options.min,
                max: q.options.max,
                allowNa: Boolean(q.options.allowNa),
              },
              number,
              section: s + 1,
              values: [],
              answer: null,
              missing: false,
            }
            return <QuestionField key={q.id} question={view} values={[]} errors={undefined} />
          })}
        </fieldset>
      ))}
    </section>
  )
}
