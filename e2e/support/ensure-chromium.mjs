// The browser tests drive Debian's Chromium. On a fresh machine, install it when we can (root),
// otherwise say exactly what is missing.
import { execSync } from 'node:child_process'
import fs from 'node:fs'

const path = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
if (!fs.existsSync(path)) {
  if (process.getuid?.() === 0) {
    console.log('Chromium is missing: installing the Debian package (apt-get install -y chromium)…')
    execSync('apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium', {
      stdio: 'inherit',
    })
  } else {
    console.error(
      `Chromium not found at ${path}. Install it with: sudo apt-get install -y chromium (or set CHROMIUM_PATH).`,
    )
    process.exit(1)
  }
}
