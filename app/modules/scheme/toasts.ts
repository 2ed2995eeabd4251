import { plural } from '#app/lib/words'

/** The e-mails a change queued, as the scheme page's toasts count them. */
type Queued = { activation: number; programmeOpen: number }

/** "3 e-mails queued (1 to activate an account, 2 …)", naming only the kinds that were queued. */
export function queuedMails({ activation, programmeOpen }: Queued) {
  const open = '“your programme is open” e-mail'
  if (!activation) return `${plural(programmeOpen, open, `${open}s`)} queued`
  if (!programmeOpen) return `${plural(activation, 'activation e-mail', 'activation e-mails')} queued`
  return `${plural(activation + programmeOpen, 'e-mail', 'e-mails')} queued (${activation} to activate an account, ${programmeOpen} “your programme is open”)`
}

/** "2 e-mails queued", whatever their kinds. */
export const queuedCount = ({ activation, programmeOpen }: Queued) =>
  `${plural(activation + programmeOpen, 'e-mail', 'e-mails')} queued`
