// A client in a process of its own, for timing answers as an outside observer would: a client in
// the test's own process shares the event loop with the server (and with an in-process PGlite), so
// work the server does after answering would be counted in the answer's time.
// Protocol (IPC): receive { url, form }, POST it, read the whole body, reply { status, ms }.
process.on('message', async ({ url, form }) => {
  const started = performance.now()
  const response = await fetch(url, { method: 'POST', body: new URLSearchParams(form), redirect: 'manual' })
  await response.arrayBuffer()
  process.send({ status: response.status, ms: performance.now() - started })
})
process.send({ ready: true })
