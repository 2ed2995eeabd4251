import type { Config } from '@react-router/dev/config'

export default {
  // Server-rendered: every page works without JavaScript, forms post to actions.
  ssr: true,
  appDirectory: 'app',
  // BUILD_DIR lets parallel checkouts of work build side by side; production uses ./build.
  buildDirectory: process.env.BUILD_DIR || 'build',
} satisfies Config
