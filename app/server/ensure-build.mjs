// `npm start` on a fresh clone: build once when there is no production build yet.
import { execSync } from 'node:child_process'
import fs from 'node:fs'

const dir = process.env.BUILD_DIR || 'build'
if (!fs.existsSync(new URL(`../../${dir}/server/index.js`, import.meta.url))) {
  console.log('No production build yet: running `npm run build` first…')
  execSync('npm run build', { stdio: 'inherit' })
}
