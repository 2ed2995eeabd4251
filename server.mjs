// Starts Panorama. `npm start` serves the production build; `npm run dev` serves through Vite.
process.env.NODE_ENV ??= process.argv.includes('--dev') ? 'development' : 'production'

if (process.argv.includes('--dev')) {
  const { createServer } = await import('vite')
  const vite = await createServer({ server: { middlewareMode: true }, appType: 'custom' })
  const { main } = await vite.ssrLoadModule('./app/server/app.ts')
  await main({
    devMiddleware: vite.middlewares,
    build: () => vite.ssrLoadModule('virtual:react-router/server-build'),
  })
} else {
  const { main } = await import(`./${process.env.BUILD_DIR || 'build'}/server/index.js`)
  await main()
}
