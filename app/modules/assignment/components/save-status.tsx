import type { SaveStatus } from './answer-state'

export function SaveStatusLine({ status, onRetry }: { status: SaveStatus; onRetry: () => void }) {
  const text =
    status.state === 'saving'
      ? 'Saving…'
      : status.state === 'saved'
        ? 'All changes saved'
        : status.state === 'dirty'
          ? 'Unsaved changes…'
          : status.state === 'retrying'
            ? 'Not saved — retrying'
            : status.state === 'invalid'
              ? 'Not saved — check the answers marked below'
              : status.state === 'refused'
                ? `Not saved — ${status.message}`
                : 'Your answers are saved each time you change section.'
  const problem = status.state === 'retrying' || status.state === 'invalid' || status.state === 'refused'
  return (
    <div className="flex flex-wrap items-center gap-3 text-sm">
      <p role="status" aria-live="polite" className={problem ? 'font-medium text-red-800' : 'text-slate-700'}>
        {text}
      </p>
      {status.state === 'retrying' ? (
        // The countdown is for the eye only: a live region ticking every second would never stop talking.
        <span aria-hidden="true" className="text-red-800">
          in {status.inSeconds} s
        </span>
      ) : null}
      {status.state === 'retrying' ? (
        <button type="button" className="link text-sm" onClick={onRetry}>
          Retry now
        </button>
      ) : null}
    </div>
  )
}
