import type { Config } from '@react-router/dev/config'

export default {
  // Server-rendered: every page works without JavaScript, forms post to actions.
  ssr: true,
  appDirectory: 'app',
  // BUILD_DIR lets parallel checkouts of work build side by side; production uses ./build.
  buildDirectory: process.env.BUILD_DIR || 'build',
  // React Router v8's behaviours, adopted now where they apply (docs/decisions/034-react-router-v8-flags-and-the-request-scope.md).
  future: {
    // Not yet: with it on, the brotli-compressed 1,000,000-answer export did not stop producing when
    // its reader paused (tests/integration/server/streamed-download.process.test.ts; ADR 034).
    v8_middleware: false,
    v8_splitRouteModules: true,
    // The server build's entry and the browser-only build steps are set per environment (vite.config.ts).
    v8_viteEnvironmentApi: true,
    v8_trailingSlashAwareDataRequests: true,
    // Not yet: guards and ~30 loaders read `request.url` and would see `.data` and `?_routes`.
    v8_passThroughRequests: false,
  },
} satisfies Config
