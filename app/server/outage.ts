import { UNAVAILABLE_CONTENT } from '#app/components/error-boundary'
import { OUTAGE_RETRY_AFTER_SECONDS } from '#db/client'

/**
 * The answer while the database cannot be reached: 503 with Retry-After, and for a browser a page
 * that says the service is briefly unavailable and tries again by itself. It is plain HTML on
 * purpose (no loader, no database, no scripts): it is what is left when the app cannot run.
 */
export { OUTAGE_RETRY_AFTER_SECONDS }

export type OutageAnswer = { status: 503; headers: Record<string, string>; body: string }

/** `html` for a page (document) request; otherwise plain text (`.data`, resource routes). */
export function outageAnswer(kind: 'html' | 'text'): OutageAnswer {
  const { status, title, description } = UNAVAILABLE_CONTENT
  const headers: Record<string, string> = {
    'Retry-After': String(OUTAGE_RETRY_AFTER_SECONDS),
    'Cache-Control': 'no-store',
  }
  if (kind === 'text') {
    headers['Content-Type'] = 'text/plain; charset=utf-8'
    return { status, headers, body: `${title}: ${description}\n` }
  }
  headers['Content-Type'] = 'text/html; charset=utf-8'
  return { status, headers, body: page(title, description) }
}

/** Whether a request is a browser asking for a page (not a `.data` fetch or an API call). */
export function wantsPage(pathname: string, accept: string | null | undefined): boolean {
  return !pathname.endsWith('.data') && (!accept || accept.includes('text/html') || accept.includes('*/*'))
}

function page(title: string, description: string) {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="refresh" content="${OUTAGE_RETRY_AFTER_SECONDS}">
<title>${title} · Panorama</title>
<style>
body{margin:0;font-family:-apple-system,BlinkMacSystemFont,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;background:#f8fafc;color:#0f172a}
main{max-width:42rem;margin:0 auto;padding:6rem 1.5rem}
.code{font-size:.875rem;font-weight:600;letter-spacing:.1em;color:#4338ca;margin:0}
h1{font-size:1.875rem;margin:.75rem 0}
p{font-size:1.125rem;line-height:1.6;color:#334155}
a{display:inline-block;margin-top:1rem;padding:.6rem 1.2rem;border-radius:.375rem;background:#4338ca;color:#fff;text-decoration:none;font-weight:600}
</style>
</head>
<body>
<main>
<p class="code">Error 503</p>
<h1>${title}</h1>
<p>${description}</p>
<p>This page tries again by itself in ${OUTAGE_RETRY_AFTER_SECONDS} seconds.</p>
<a href="">Try again now</a>
</main>
</body>
</html>
`
}
