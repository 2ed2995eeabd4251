import { reactRouter } from '@react-router/dev/vite'
import tailwindcss from '@tailwindcss/vite'
import { defineConfig } from 'vite'

export default defineConfig(({ isSsrBuild }) => ({
  // The server build's entry is our Express app (app/server/app.ts), which wraps the
  // React Router request handler; server.mjs imports it in production.
  build: isSsrBuild
    ? { rollupOptions: { input: './app/server/app.ts' }, target: 'node20' }
    : { target: 'es2022' },
  plugins: [tailwindcss(), reactRouter()],
  server: { port: Number(process.env.PORT ?? 3000) },
}))
