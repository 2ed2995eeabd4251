import zlib from 'node:zlib'
import { reactRouter } from '@react-router/dev/vite'
import tailwindcss from '@tailwindcss/vite'
import { defineConfig, type Rollup } from 'vite'
import { compression, defineAlgorithm } from 'vite-plugin-compression2'

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

export default defineConfig(({ isSsrBuild }) => ({
  // The server build's entry is our Express app (app/server/app.ts), which wraps the
  // React Router request handler; server.mjs imports it in production.
  build: isSsrBuild
    ? { rollupOptions: { input: './app/server/app.ts', onwarn }, target: 'node20' }
    : { rollupOptions: { onwarn }, target: 'es2022' },
  resolve: isSsrBuild
    ? undefined
    : {
        // The form schemas are Zod Mini (app/lib/zod.ts) so that a page carries only the Zod it uses.
        // @conform-to/zod/v4 wraps a schema for its form-value coercion with four functions of classic
        // Zod (`lazy`, `optional`, `pipe`, `transform` from 'zod/v4'), which would bring classic Zod
        // (≈ 13 kB gzip) back into every page with a form. Zod Mini exports the same four functions
        // with the same signatures, building the same core schemas, so the browser build takes them
        // from there. Nothing else imports 'zod/v4' in the browser; the server keeps classic Zod.
        alias: [{ find: /^zod\/v4$/, replacement: 'zod/mini' }],
      },
  plugins: [
    tailwindcss(),
    reactRouter(),
    // The browser's files, compressed once here at the highest settings (brotli 11, gzip 9) and
    // served as they are (app/server/app.ts): no request compresses a static file.
    !isSsrBuild &&
      compression({
        algorithms: [
          defineAlgorithm('brotliCompress', { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }),
          defineAlgorithm('gzip', { level: 9 }),
        ],
        logLevel: 'silent',
      }),
  ],
  server: { port: Number(process.env.PORT ?? 3000) },
}))
