/**
 * Whether a submission changes nothing any loader shows, so that no route needs to reload its data
 * after it: an autosave (assignment page) stores answers the page already shows, and reports the new
 * counts in its own answer. Each route that opts out asks this in its `shouldRevalidate`; the root
 * must too, or a fetcher's submit still costs a second request that reloads the root loader.
 */
export function changesNothingShown(formData: FormData | undefined): boolean {
  return formData?.get('intent') === 'autosave'
}
