import type { Config } from '@react-router/dev/config'

export default {
  // Server-rendered: every page works without JavaScript, forms post to actions.
  ssr: true,
  appDirectory: 'app',
  buildDirectory: 'build',
} satisfies Config
