import { useEffect, useRef, useState } from 'react'
import { useRevalidator } from 'react-router'

/**
 * Live pages (/user, the admin dashboard) listen to a server-sent event stream (app/modules/realtime)
 * and re-read their loaders when something changes. Returns whether the stream is connected.
 */
/** Re-reads the page's data on every live event (bursts collapse into one), and after a reconnect. */
export function useLiveUpdates(url: string) {
  const { revalidate } = useRevalidator()
  const revalidateRef = useRef(revalidate)
  const [connected, setConnected] = useState(false)
  useEffect(() => {
    revalidateRef.current = revalidate
  }, [revalidate])
  useEffect(() => {
    if (typeof EventSource === 'undefined') return
    const source = new EventSource(url)
    let timer: ReturnType<typeof setTimeout> | undefined
    let openedBefore = false
    const refresh = () => {
      clearTimeout(timer)
      timer = setTimeout(() => void revalidateRef.current(), 200)
    }
    source.addEventListener('assignment.updated', refresh)
    source.addEventListener('resync', refresh)
    source.addEventListener('open', () => {
      // Events sent while the connection was down are lost: catch up once it is back.
      if (openedBefore) refresh()
      openedBefore = true
      setConnected(true)
    })
    source.addEventListener('error', () => setConnected(source.readyState === EventSource.OPEN))
    return () => {
      clearTimeout(timer)
      source.close()
    }
  }, [url])
  return connected
}
