import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react'
import { useBeforeUnload, useFetcher, useSubmit } from 'react-router'
import { AUTOSAVE_DEBOUNCE_MS, autosaveRetryDelay } from '#app/modules/assignment/answer-schemas'
import type { AnswerActionData, Progress, SaveStatus } from './answer-state'

/**
 * Debounced autosave through a fetcher. Each save posts the whole section as it is now, so a retry
 * or a later save always carries the newest answers and nothing typed is ever dropped: it stays in
 * the form until a save succeeds (and the step buttons post it too).
 */
export function useAutosave(
  formRef: React.RefObject<HTMLFormElement | null>,
  onSaved: (progress: Progress) => void,
) {
  const fetcher = useFetcher<AnswerActionData>()
  const { submit } = fetcher
  const [status, setStatus] = useState<SaveStatus>({ state: 'idle' })
  const [errors, setErrors] = useState<Record<string, string[]> | undefined>()
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
  const countdown = useRef<ReturnType<typeof setInterval> | undefined>(undefined)
  const failures = useRef(0)
  const dirty = useRef(false)
  const inFlight = useRef(false)
  const stopped = useRef(false)
  const queuedIntent = useRef<string | null>(null)
  const submitForm = useSubmit()

  const clearTimers = useCallback(() => {
    clearTimeout(timer.current)
    clearInterval(countdown.current)
  }, [])

  const saveNow = useCallback(() => {
    clearTimers()
    const form = formRef.current
    if (!form || stopped.current) return
    // One save at a time: a second would abort the first; the newest answers follow when it returns.
    if (inFlight.current) return
    dirty.current = false
    inFlight.current = true
    const formData = new FormData(form)
    formData.set('intent', 'autosave')
    setStatus({ state: 'saving' })
    void submit(formData, { method: 'post' })
  }, [clearTimers, submit, formRef])

  // Watch the form for changes (event delegation: the inputs stay uncontrolled).
  useEffect(() => {
    const form = formRef.current
    if (!form) return
    const onChange = () => {
      if (stopped.current) return
      dirty.current = true
      setStatus((s) => (s.state === 'saving' || s.state === 'retrying' ? s : { state: 'dirty' }))
      if (inFlight.current || failures.current) return
      clearTimeout(timer.current)
      timer.current = setTimeout(saveNow, AUTOSAVE_DEBOUNCE_MS)
    }
    form.addEventListener('input', onChange)
    form.addEventListener('change', onChange)
    return () => {
      form.removeEventListener('input', onChange)
      form.removeEventListener('change', onChange)
    }
  }, [formRef, saveNow])

  // A save came back.
  useEffect(() => {
    if (fetcher.state !== 'idle' || !inFlight.current) return
    inFlight.current = false
    const form = formRef.current
    if (queuedIntent.current && form) {
      // A step button was pressed while this save was under way: its post goes now, with the newest answers.
      const formData = new FormData(form)
      formData.set('intent', queuedIntent.current)
      queuedIntent.current = null
      void submitForm(formData, { method: 'post', action: form.getAttribute('action') ?? undefined })
      return
    }
    const result = fetcher.data
    if (result?.kind === 'saved') {
      failures.current = 0
      setErrors(undefined)
      if (result.progress) onSaved(result.progress)
      if (dirty.current) {
        setStatus({ state: 'dirty' })
        timer.current = setTimeout(saveNow, AUTOSAVE_DEBOUNCE_MS)
      } else setStatus({ state: 'saved' })
      return
    }
    if (result?.kind === 'refused') {
      if (result.reason === 'invalid') {
        setErrors(result.fieldErrors)
        setStatus({ state: 'invalid' })
        return
      }
      // Submitted elsewhere, or the scheme closed: retrying cannot help.
      stopped.current = true
      setStatus({ state: 'refused', message: result.message })
      return
    }
    // No answer (network) or an unreadable one: try again later with whatever the form holds then.
    failures.current += 1
    const wait = autosaveRetryDelay(failures.current)
    const due = Date.now() + wait
    setStatus({ state: 'retrying', inSeconds: Math.ceil(wait / 1000) })
    clearTimers()
    countdown.current = setInterval(() => {
      setStatus({ state: 'retrying', inSeconds: Math.max(1, Math.ceil((due - Date.now()) / 1000)) })
    }, 1000)
    timer.current = setTimeout(saveNow, wait)
  }, [fetcher.state, fetcher.data, saveNow, clearTimers, formRef, submitForm, onSaved])

  useEffect(() => clearTimers, [clearTimers])

  // Leaving while a save is failing would lose answers: let the browser ask first.
  useBeforeUnload(
    useCallback(
      (event: BeforeUnloadEvent) => {
        if (status.state === 'retrying') event.preventDefault()
      },
      [status.state],
    ),
  )

  /**
   * The form's own submit carries every answer, so pending autosaves are dropped. One already on its
   * way is waited for: were the step's post to overtake it, the older answers would land last.
   */
  const beforeSubmit = useCallback(
    (event: FormEvent<HTMLFormElement>) => {
      clearTimers()
      dirty.current = false
      if (!inFlight.current) return
      event.preventDefault()
      const submitter = (event.nativeEvent as SubmitEvent).submitter
      queuedIntent.current =
        submitter instanceof HTMLButtonElement && submitter.name === 'intent' ? submitter.value : 'save'
      setStatus({ state: 'saving' })
    },
    [clearTimers],
  )

  return { status, errors, retryNow: saveNow, beforeSubmit }
}
