import { createContext, createElement, startTransition, useContext, useEffect, useState, useSyncExternalStore, type ReactNode } from 'react'

const subscribe = () => () => {}

/** The page's own answer (HydratedProvider); none outside it, as in a component test. */
const HydratedContext = createContext<boolean | null>(null)

/**
 * Gives the page's components their `useHydrated()` (app/root.tsx): false
 * while the page hydrates, true from the next render on, which React renders
 * as a transition, in slices that leave the main thread free between them.
 * A store's answer alone (below) changes with hydration itself, and React
 * then renders every component that asked again at once, in one long task
 * (docs/decisions/053-first-paint.md). It also marks a page whose
 * script has taken over (<html data-hydrated>): the browser tests wait for
 * it before they click (tests/e2e/support/test.ts).
 */
export function HydratedProvider({ children }: { children: ReactNode }) {
	const [hydrated, setHydrated] = useState(false)
	useEffect(() => {
		if (hydrated) document.documentElement.dataset.hydrated = ''
		else startTransition(() => setHydrated(true))
	}, [hydrated])
	return createElement(HydratedContext.Provider, { value: hydrated }, children)
}

/**
 * False during SSR and hydration, true once the browser has taken over. Under
 * HydratedProvider its answer is the provider's on the server and in the
 * browser alike, so hydration itself changes nothing; without one, false on
 * the server and while hydrating, true in a browser's own render.
 */
export function useHydrated(): boolean {
	const provided = useContext(HydratedContext)
	return useSyncExternalStore(
		subscribe,
		() => provided ?? true,
		() => provided ?? false,
	)
}
