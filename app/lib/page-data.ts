/**
 * The props of a page component, taken from the domain function that builds its data (ADR 033):
 * `PageData<typeof loadSchemePage>`. A loader answers 404 when that function finds nothing (null),
 * so the page never sees the null.
 */
export type PageData<Load extends (...args: never[]) => Promise<unknown>> = NonNullable<
  Awaited<ReturnType<Load>>
>
