import { useTranslation } from 'react-i18next'
import { TableScroller } from '#app/components/table-scroller'
import type { apiReference } from '../openapi.server'

type Reference = ReturnType<typeof apiReference>

/**
 * The API's reference for admins (issue 21 §1), drawn from the OpenAPI document: no external
 * script or style, so it works on an intranet and under the pages' Content-Security-Policy. The
 * document is written in English (as the API's names are): its texts say so (`lang="en"`), so a
 * screen reader reads them as English on a German page.
 */
export function ApiReference({ reference }: { reference: Reference }) {
  const { t } = useTranslation('api-keys')
  return (
    <div className="flex flex-col gap-8">
      <section aria-labelledby="reference-overview" className="card flex flex-col gap-2">
        <h2 id="reference-overview" className="text-lg font-semibold">
          {reference.title} <span className="text-sm font-normal text-slate-700">{reference.version}</span>
        </h2>
        {reference.description.map((paragraph) => (
          <p key={paragraph} lang="en" className="text-slate-800">
            {paragraph}
          </p>
        ))}
      </section>
      {reference.operations.map((operation) => (
        <section
          key={operation.id}
          id={operation.id}
          aria-labelledby={`${operation.id}-title`}
          className="card flex flex-col gap-3"
        >
          <h2 id={`${operation.id}-title`} className="text-lg font-semibold">
            <code className="mr-2 rounded bg-slate-100 px-1.5 py-0.5 text-sm">{operation.method}</code>
            <code>{operation.path}</code>
          </h2>
          <p lang="en" className="font-medium">
            {operation.summary}
          </p>
          {operation.description.map((paragraph) => (
            <p key={paragraph} lang="en" className="text-slate-800">
              {paragraph}
            </p>
          ))}
          {operation.parameters.length ? (
            <TableScroller
              label={`${operation.method} ${operation.path}: ${t('reference.parameters')}`}
              className="relative"
            >
              <table className="w-full text-left text-sm">
                <caption className="text-left font-semibold">{t('reference.parameters')}</caption>
                <thead>
                  <tr>
                    <th scope="col" className="py-1 pr-4">
                      {t('reference.name')}
                    </th>
                    <th scope="col" className="py-1 pr-4">
                      {t('reference.in')}
                    </th>
                    <th scope="col" className="py-1 pr-4">
                      {t('reference.type')}
                    </th>
                    <th scope="col" className="py-1">
                      {t('reference.description')}
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {operation.parameters.map((p) => (
                    <tr key={p.name} className="border-t border-slate-200">
                      <th scope="row" className="py-1 pr-4 font-mono font-normal">
                        {p.name}
                        {p.required ? ` (${t('reference.required')})` : ''}
                      </th>
                      <td className="py-1 pr-4">{p.in}</td>
                      <td className="py-1 pr-4">{p.type}</td>
                      <td lang="en" className="py-1">
                        {p.description}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroller>
          ) : null}
          {operation.body ? (
            <>
              <h3 className="font-semibold">{t('reference.body')}</h3>
              <p lang="en" className="text-slate-800">
                {operation.body.description}
              </p>
              <pre
                tabIndex={0}
                aria-label={t('reference.bodyExample')}
                className="overflow-x-auto rounded bg-slate-100 p-3 text-xs"
              >
                {operation.body.example}
              </pre>
            </>
          ) : null}
          <h3 className="font-semibold">{t('reference.responses')}</h3>
          <dl className="flex flex-col gap-2">
            {operation.responses.map((response) => (
              <div key={response.status}>
                <dt>
                  <code>{response.status}</code> <span lang="en">{response.description}</span>
                </dt>
                {response.example ? (
                  <dd>
                    <pre
                      tabIndex={0}
                      aria-label={t('reference.example', { status: response.status })}
                      className="mt-1 overflow-x-auto rounded bg-slate-100 p-3 text-xs"
                    >
                      {response.example}
                    </pre>
                  </dd>
                ) : null}
              </div>
            ))}
          </dl>
        </section>
      ))}
    </div>
  )
}
