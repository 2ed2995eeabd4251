import { resourcesFrom, type Messages, type Resources } from './catalogues'

/** Every catalogue, read once with the server build (a few kB each); the tests read the same. */
export const RESOURCES: Resources = resourcesFrom(
  import.meta.glob<{ default: Messages }>('./locales/*/*.json', { eager: true }),
)
