import { lazy, type ComponentType } from 'react'
import type * as All from './creator-parts-all'

type Parts = typeof All

let parts: Parts | null = null

/**
 * The creator's parts of a session page (their view of the live session,
 * the stop confirmation, the recaps) are one chunk of their own, which a
 * visitor's browser never fetches (docs/decisions/038: the page's
 * JavaScript budget). The server loads it before it renders a creator's
 * page (page.server.ts), so they render at once, in the page's flow. No
 * <Suspense> around them: React streams a finished boundary that comes
 * after the page's first 12.8 KB apart, revealed by a script, which a
 * browser without JavaScript never runs. In the browser the chunk comes
 * when a creator's page first shows them, and the page hydrates once it
 * is in (until then it is the server's page, its forms plain posts).
 */
export function loadCreatorParts(): Promise<Parts> {
	return import('./creator-parts-all').then((loaded) => (parts = loaded))
}

/** A part as a lazy component that does not suspend once the chunk is loaded (on the server, always). */
function part<K extends keyof Parts>(name: K): Parts[K] {
	return lazy(() => {
		if (parts) {
			const loaded = { default: parts[name] as ComponentType<unknown> }
			// Answered at once: React takes a thenable that resolves synchronously without suspending.
			return { then: (resolve: (value: typeof loaded) => void) => resolve(loaded) } as Promise<typeof loaded>
		}
		return loadCreatorParts().then((loaded) => ({ default: loaded[name] as ComponentType<unknown> }))
	}) as unknown as Parts[K]
}

export const CreatorView = part('CreatorView')
export const StopConfirm = part('StopConfirm')
export const RecapPanel = part('RecapPanel')
export const RecapLine = part('RecapLine')
