// A worker process that claims a batch and then hangs in its first SMTP exchange, renewing its
// lease, until the test kills it (claim.test.ts): a crash in the middle of a batch.
import { openDatabase } from '#db/client'
import { processOutboxOnce } from '#app/modules/email/outbox.server'

await openDatabase({ url: process.env.DATABASE_URL, applicationName: 'crashing-worker' })
await processOutboxOnce({
  workerId: process.env.WORKER_ID ?? 'doomed',
  limit: Number(process.env.LIMIT ?? 10),
  transport: {
    sendMail: () => {
      process.stdout.write('sending\n')
      return new Promise(() => {})
    },
  },
})
