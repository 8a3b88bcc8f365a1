import { useRouteLoaderData } from 'react-router'
import type { loadRootData } from '#app/root-data.server'

/**
 * The root loader's data (app/root-data.server.ts): the locale, the signed-in
 * account, the public environment, the consent state, the flash toast. The
 * one way components read it; undefined where the root loader did not run
 * (an error page rendered without it, a test's route stub without a root).
 */
export function useRootData() {
	return useRouteLoaderData<typeof loadRootData>('root')
}
