import { useSyncExternalStore } from 'react'

/**
 * Whether the visitor has done anything on the page yet (moved the pointer,
 * touched, scrolled, pressed a key): what a page may wait for before loading
 * what only someone using it needs (home's live cards for a visitor: the
 * JavaScript budget of issue 11 is for a page that is only looked at, as
 * React Aria's number field waits to be reached for, ADR 038). False on the
 * server and until then; one set of listeners for the whole page.
 */
const EVENTS = ['pointermove', 'pointerdown', 'touchstart', 'keydown', 'scroll', 'wheel'] as const

let interacted = false
const listeners = new Set<() => void>()

function done() {
	interacted = true
	for (const event of EVENTS) window.removeEventListener(event, done, true)
	for (const listener of listeners) listener()
}

function subscribe(listener: () => void) {
	if (!interacted && listeners.size === 0) for (const event of EVENTS) window.addEventListener(event, done, { capture: true, passive: true })
	listeners.add(listener)
	return () => void listeners.delete(listener)
}

export function useFirstInteraction(): boolean {
	return useSyncExternalStore(
		subscribe,
		() => interacted,
		() => false,
	)
}
