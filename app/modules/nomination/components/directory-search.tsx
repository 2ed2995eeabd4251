import { useEffect, useRef, useState, type KeyboardEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { useFetcher } from 'react-router'
import { useFormMessage } from '#app/components/forms'
import {
  DIRECTORY_MESSAGES,
  DIRECTORY_MIN_QUERY,
  DIRECTORY_PATH,
  type DirectoryAnswer,
  type DirectoryPerson,
} from '#app/modules/nomination/directory'

/** How long typing must pause before the directory is asked (one request per pause, not per key). */
const DEBOUNCE_MS = 200

/**
 * The colleague directory as a type-ahead (issue 18 §3): a WAI-ARIA 1.2 combobox with a listbox.
 * Typing three letters or more asks the directory (a resource route, through a fetcher) for at most
 * eight people; arrow keys move through them, Enter picks, Escape closes the list (and empties the
 * box when it is closed). How many were found is read out by a polite live region. The e-mail
 * address is never sent to the browser: a pick hands the person's id and name to `onPick`.
 *
 * Scripted only: it renders nothing until hydrated, and the page keeps the plain e-mail form for
 * browsers without JavaScript. Loaded with React.lazy by the page (the page's client JS is held to
 * its budget), hence the default export.
 */
export function DirectorySearch({
  employeeId,
  onPick,
  label = 'Find a colleague in the directory',
  id = 'directory',
}: {
  /** Whose list is being built: the people offered are that employee's colleagues. */
  employeeId: string
  onPick: (person: { id: string; name: string }) => void
  label?: string
  /** Prefix of the element ids (two comboboxes on one page need two). */
  id?: string
}) {
  const { t } = useTranslation('nomination')
  const say = useFormMessage()
  const fetcher = useFetcher<DirectoryAnswer>()
  const [hydrated, setHydrated] = useState(false)
  const [text, setText] = useState('')
  const [open, setOpen] = useState(false)
  const [active, setActive] = useState(-1)
  /** The term the shown results are for (the box may have moved on while a request is under way). */
  const [asked, setAsked] = useState('')
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined)
  const { load } = fetcher

  useEffect(() => setHydrated(true), [])
  useEffect(() => () => clearTimeout(timer.current), [])

  const term = text.trim()
  const long = [...term].length >= DIRECTORY_MIN_QUERY
  const people: DirectoryPerson[] = long && asked ? (fetcher.data?.people ?? []) : []
  const waiting = long && (fetcher.state !== 'idle' || asked !== term)
  const hint = !term ? null : long ? (fetcher.data?.hint ?? null) : DIRECTORY_MESSAGES.tooShort
  const expanded = open && people.length > 0

  if (!hydrated) return null

  const inputId = `${id}-input`
  const listId = `${id}-listbox`
  const optionId = (i: number) => `${id}-option-${i}`
  const hintId = `${id}-hint`

  const change = (value: string) => {
    setText(value)
    setActive(-1)
    setOpen(true)
    clearTimeout(timer.current)
    const next = value.trim()
    if ([...next].length < DIRECTORY_MIN_QUERY) return
    timer.current = setTimeout(() => {
      setAsked(next)
      void load(`${DIRECTORY_PATH}?${new URLSearchParams({ employee: employeeId, q: next })}`)
    }, DEBOUNCE_MS)
  }

  const pick = (person: DirectoryPerson) => {
    onPick({ id: person.id, name: person.name })
    clearTimeout(timer.current)
    setText('')
    setAsked('')
    setOpen(false)
    setActive(-1)
  }

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault()
      if (!people.length) return
      setOpen(true)
      const step = event.key === 'ArrowDown' ? 1 : -1
      setActive((i) =>
        !expanded ? (step > 0 ? 0 : people.length - 1) : (i + step + people.length) % people.length,
      )
    } else if (event.key === 'Enter') {
      // Never the enclosing form's submit: Enter picks (or does nothing while nobody is chosen).
      event.preventDefault()
      const person = expanded ? people[active] : undefined
      if (person) pick(person)
    } else if (event.key === 'Escape') {
      event.preventDefault()
      if (expanded) setOpen(false)
      else change('')
      setActive(-1)
    }
  }

  // What the live region reads: the number found, once the answer for this term is in.
  // (A refusal's words, "Too many searches…", are read instead.)
  const status =
    !long || waiting
      ? ''
      : hint
        ? say(hint)
        : people.length === 1
          ? t('directory.found', { count: 1 })
          : people.length
            ? t('directory.found', { count: people.length })
            : t('directory.nobody')

  return (
    <div className="relative flex w-full min-w-0 flex-col gap-1">
      <label htmlFor={inputId} className="label">
        {label}
      </label>
      <input
        id={inputId}
        type="text"
        role="combobox"
        className="input"
        autoComplete="off"
        spellCheck={false}
        placeholder={t('directory.placeholder')}
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-activedescendant={expanded && active >= 0 ? optionId(active) : undefined}
        aria-describedby={hintId}
        value={text}
        onChange={(event) => change(event.target.value)}
        onKeyDown={onKeyDown}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
      />
      <p id={hintId} className="text-sm text-slate-600">
        {hint
          ? say(hint)
          : term && long && !waiting && !people.length
            ? t('directory.noMatch', { term })
            : ''}
      </p>
      <ul
        id={listId}
        role="listbox"
        aria-label={label}
        hidden={!expanded}
        className="absolute top-full right-0 left-0 z-20 mt-1 max-h-80 overflow-y-auto rounded-md border border-slate-300 bg-white py-1 shadow-lg"
      >
        {people.map((person, i) => (
          <li
            key={person.id}
            id={optionId(i)}
            role="option"
            aria-selected={i === active}
            // Keep the focus in the box: a click must not blur it (and close the list) first.
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => pick(person)}
            onMouseMove={() => setActive(i)}
            className={`cursor-pointer px-3 py-2 break-words ${i === active ? 'bg-indigo-50 text-indigo-950' : 'text-slate-900'}`}
          >
            <span className="block font-medium">{person.name || t('directory.noName')}</span>
            {person.jobTitle || person.department ? (
              <span className="block text-sm text-slate-600">
                {[person.jobTitle, person.department].filter(Boolean).join(' · ')}
              </span>
            ) : null}
          </li>
        ))}
      </ul>
      <p role="status" aria-live="polite" className="sr-only">
        {status}
      </p>
    </div>
  )
}

export default DirectorySearch
