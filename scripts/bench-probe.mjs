// Loaded into the server that `npm run bench` starts (node --import …/bench-probe.mjs server.mjs),
// never into a server started any other way. Over the IPC channel the bench opened, it answers with
// the process's counters: requests received and still open, statements run (db/client.ts counts
// them when QUERY_COUNT=1) and CPU time used, so the bench can divide by requests without
// touching the app.
import dc from 'node:diagnostics_channel'

let received = 0
let open = 0
// Counted when they arrive: a request the load generator abandons at the end of a run has still
// run its queries and used the CPU.
dc.subscribe('http.server.request.start', ({ response }) => {
  received++
  open++
  response.once('close', () => {
    open--
  })
})

// The server's peak RSS while the bench asks for it (the CSV import's measurement).
let sampler
let baseline = 0
let peak = 0

if (process.send) {
  process.on('message', (message) => {
    if (message === 'bench:memory-start') {
      clearInterval(sampler)
      baseline = peak = process.memoryUsage.rss()
      sampler = setInterval(() => {
        peak = Math.max(peak, process.memoryUsage.rss())
      }, 5)
      sampler.unref()
      process.send({ type: 'bench:memory', baseline, peak })
      return
    }
    if (message === 'bench:memory-stop') {
      clearInterval(sampler)
      peak = Math.max(peak, process.memoryUsage.rss())
      process.send({ type: 'bench:memory', baseline, peak })
      return
    }
    if (message !== 'bench:read') return
    const counter = globalThis[Symbol.for('panorama.queryCounter')]
    const cpu = process.cpuUsage()
    process.send({
      type: 'bench:counters',
      requests: received,
      open,
      queries: counter?.total ?? 0,
      cpuMicros: cpu.user + cpu.system,
    })
  })
  // The channel must not keep the server alive once it has been told to stop.
  process.channel?.unref()
}
