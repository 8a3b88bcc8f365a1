/**
 * The build manifest: vite.config.ts writes `build/client/builds/latest.json`
 * (`{ id, time }`) in every client build and bakes the same id into the
 * bundle, so an open tab can tell when a newer build is deployed. server.js
 * serves the file with `Cache-Control: no-cache`.
 */
export const BUILD_MANIFEST_PATH = '/builds/latest.json'

export type BuildManifest = { id: string; time: string }

declare const __BUILD_ID__: string | undefined

/** The id of the build this page's scripts came from (`dev` under Vite's dev server and in unit tests). */
export const CURRENT_BUILD_ID: string = typeof __BUILD_ID__ === 'string' ? __BUILD_ID__ : 'dev'

export function isBuildManifest(value: unknown): value is BuildManifest {
	return (
		typeof value === 'object' &&
		value !== null &&
		'id' in value &&
		typeof value.id === 'string' &&
		value.id.length > 0 &&
		'time' in value &&
		typeof value.time === 'string'
	)
}
