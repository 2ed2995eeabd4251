// Builds the production build quietly: one line with the time (warnings and errors still print;
// `npm run build` shows Vite's full report). `npm start` (prestart) builds only when there is no
// build yet, as on a fresh clone; `npm test` passes --always.
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'

const dir = process.env.BUILD_DIR || 'build'
const always = process.argv.includes('--always')
if (always || !fs.existsSync(new URL(`../../${dir}/server/index.js`, import.meta.url))) {
  const cli = path.join(
    path.dirname(createRequire(import.meta.url).resolve('@react-router/dev/package.json')),
    'bin.js',
  )
  const started = performance.now()
  process.stdout.write(always ? `Building ${dir}/… ` : `No production build yet: building ${dir}/… `)
  execFileSync(process.execPath, [cli, 'build', '--logLevel', 'warn'], { stdio: 'inherit' })
  console.log(`built in ${((performance.now() - started) / 1000).toFixed(1)} s`)
}
