/**
 * The answering page's title and whose feedback it is, as respondents see it: on the page itself
 * and in the builder's preview. `subjectName` is null for a self-assessment.
 */
export function AnsweringTitle({ title, subjectName }: { title: string; subjectName: string | null }) {
  return (
    <>
      <h1 id="page-title" className="text-2xl font-bold tracking-tight">
        {title}
      </h1>
      <p className="text-slate-700">
        {subjectName === null ? (
          'Your self-assessment: the questions are about you.'
        ) : (
          <>
            Your feedback for <strong>{subjectName}</strong>. They see it only together with other colleagues’
            answers, never with your name.
          </>
        )}
      </p>
    </>
  )
}
