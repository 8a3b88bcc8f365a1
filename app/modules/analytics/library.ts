// The PostHog library as a file of the build (hashed, served from /assets),
// not as part of any bundle: pages that never get consent never download it.
// The slim, no-external build loads nothing else (no recorder, surveys,
// toolbar or remote config).
import libraryUrl from 'posthog-js/dist/module.slim.no-external.js?url'

export const ANALYTICS_LIBRARY_URL: string = libraryUrl
