import fs from 'node:fs/promises'
import path from 'node:path'
import { promisify } from 'node:util'
import zlib from 'node:zlib'
import { reactRouter } from '@react-router/dev/vite'
import tailwindcss from '@tailwindcss/vite'
import { defineConfig, type Plugin, type Rollup } from 'vite'

/**
 * Rollup's notices that say nothing about our code: a route module whose every export is
 * server-only leaves an empty browser chunk (resource routes: the CSV exports, /login, /sign-out…),
 * and a library's comment in a position Rollup cannot read as an annotation is dropped. Anything
 * else is still printed.
 */
const ROUTINE_WARNINGS = new Set(['EMPTY_BUNDLE', 'INVALID_ANNOTATION'])
function onwarn(warning: Rollup.RollupLog, warn: (warning: Rollup.RollupLog) => void) {
  if (!ROUTINE_WARNINGS.has(warning.code ?? '')) warn(warning)
}

/**
 * The form schemas are Zod Mini (app/lib/zod.ts) so that a page carries only the Zod it uses.
 * @conform-to/zod/v4 wraps a schema for its form-value coercion with four functions of classic Zod
 * (`lazy`, `optional`, `pipe`, `transform` from 'zod/v4'), which would bring classic Zod (≈ 13 kB
 * gzip) back into every page with a form. Zod Mini exports the same four functions with the same
 * signatures, building the same core schemas, so the browser build takes them from there. Nothing
 * else imports 'zod/v4' in the browser; the server keeps classic Zod. A resolver for the browser's
 * environment alone: an alias would reach the server build too.
 */
const zodMiniInTheBrowser: Plugin = {
  name: 'panorama:zod-mini-in-the-browser',
  enforce: 'pre',
  applyToEnvironment: (environment) => environment.name === 'client',
  resolveId(source, importer, options) {
    if (source === 'zod/v4') return this.resolve('zod/mini', importer, { ...options, skipSelf: true })
  },
}

/**
 * The browser's files, compressed once here at the highest settings (brotli 11, gzip 9) and served
 * as they are (app/server/app.ts, ADR 009): no request compresses a static file. Every text file of
 * the client build, the public folder's included, gets a `.br` and a `.gz` copy beside it when the
 * copy is smaller.
 */
const COMPRESSIBLE = /\.(html|xml|css|json|js|mjs|svg|yaml|yml|toml)$/
const brotli = promisify(zlib.brotliCompress)
const gzip = promisify(zlib.gzip)
const precompressed: Plugin = {
  name: 'panorama:precompressed',
  apply: 'build',
  applyToEnvironment: (environment) => environment.name === 'client',
  async writeBundle(output) {
    const dir = output.dir ?? this.environment.config.build.outDir
    const files = (await fs.readdir(dir, { recursive: true })).filter((file) => COMPRESSIBLE.test(file))
    await Promise.all(
      files.map(async (file) => {
        const source = await fs.readFile(path.join(dir, file))
        const copies = [
          ['.br', await brotli(source, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } })],
          ['.gz', await gzip(source, { level: 9 })],
        ] as const
        for (const [suffix, copy] of copies)
          if (copy.length < source.length) await fs.writeFile(path.join(dir, file + suffix), copy)
      }),
    )
  },
}

// React Router's `v8_viteEnvironmentApi` flag (ADR 034): each build is configured per environment.
export default defineConfig({
  build: { rollupOptions: { onwarn } },
  environments: {
    client: { build: { target: 'es2022' } },
    // The server build's entry is our Express app (app/server/app.ts), which wraps the
    // React Router request handler; server.mjs imports it in production.
    ssr: { build: { target: 'node20', rollupOptions: { input: './app/server/app.ts', onwarn } } },
  },
  plugins: [zodMiniInTheBrowser, tailwindcss(), reactRouter(), precompressed],
  server: { port: Number(process.env.PORT ?? 3000) },
})
