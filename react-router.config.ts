import type { Config } from '@react-router/dev/config'

export default {
  // Server-rendered: every page works without JavaScript, forms post to actions.
  ssr: true,
  appDirectory: 'app',
  // BUILD_DIR lets parallel checkouts of work build side by side; production uses ./build.
  buildDirectory: process.env.BUILD_DIR || 'build',
  // React Router v8's behaviours, adopted now where they apply (docs/decisions/034-react-router-v8-flags-and-the-request-scope.md).
  future: {
    // The load context is a RouterContextProvider carrying our fields (app/server/context.ts).
    v8_middleware: true,
    v8_splitRouteModules: true,
    // The server build's entry and the browser-only build steps are set per environment (vite.config.ts).
    v8_viteEnvironmentApi: true,
    v8_trailingSlashAwareDataRequests: true,
    // Not yet: guards and ~30 loaders read `request.url` and would see `.data` and `?_routes`.
    v8_passThroughRequests: false,
  },
} satisfies Config
