import { Fragment, type ReactNode } from 'react'
import type { TFunction } from 'i18next'

/**
 * A message with React elements in it ("signs you in with <strong>Acme SSO</strong>."): the words
 * and their order stay the translator's, the element is ours. Each node's argument is formatted as
 * a private-use marker, and the formatted text is cut at the markers. Unlike <Trans>, no markup is
 * parsed out of a value (a provider's name may contain anything).
 */
export function richT(
  t: TFunction,
  key: string,
  nodes: Record<string, ReactNode>,
  values: Record<string, string | number> = {},
): ReactNode {
  const names = Object.keys(nodes)
  const markers = Object.fromEntries(names.map((name, i) => [name, `\uE000${i}\uE001`]))
  const text = t(key, { ...values, ...markers }) as string
  return text.split(/(\uE000\d+\uE001)/).map((part, i) => {
    const match = /^\uE000(\d+)\uE001$/.exec(part)
    const node = match ? nodes[names[Number(match[1])]!] : part
    return <Fragment key={i}>{node}</Fragment>
  })
}
